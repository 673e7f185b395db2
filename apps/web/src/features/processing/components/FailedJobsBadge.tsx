import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { TriangleAlertIcon } from "lucide-react";
import { badgeClasses } from "#web/components/ui/badge";
import { useModeratorAccess } from "#web/features/moderation/api";
import { cn } from "#web/lib/cn";
import { processingSummaryQueryOptions } from "../api";
import { failedJobsText } from "../view";

/**
 * For the feed's moderators: failed or partly failed jobs of the last day, linking to the processing tab
 * filtered to them. Nothing for anyone else, nor when nothing failed.
 */
export function FailedJobsBadge({ feedId }: { feedId: string }) {
  const granted = useModeratorAccess(feedId) === "granted";
  const { data } = useQuery({ ...processingSummaryQueryOptions(feedId), enabled: granted });
  if (!granted || !data || data.failedLast24h <= 0) return null;
  return (
    <Link
      to="/feed/$feedId/processing"
      params={{ feedId }}
      search={{ failures: "recent" }}
      className={cn(badgeClasses("red"), "py-1 hover:border-red-300 hover:bg-red-100")}
      data-testid="failed-jobs-badge"
    >
      <TriangleAlertIcon aria-hidden="true" className="size-3.5" />
      {failedJobsText(data.failedLast24h)}
    </Link>
  );
}
