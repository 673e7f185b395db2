import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { logIntegrityQueryOptions } from "../api";

/**
 * On every tab of a feed, for everyone: the server's own check found the feed's moderation log changed or cut
 * short. Nothing is shown while it checks out.
 */
export function LogIntegrityNotice({ feedId }: { feedId: string }) {
  const { data } = useQuery(logIntegrityQueryOptions(feedId));
  if (data?.status !== "broken") return null;
  return (
    <p
      role="alert"
      data-testid="log-integrity-notice"
      className="mt-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      This feed's moderation log failed the server's integrity check at entry #{data.brokenAt}: it was changed
      after it was written.{" "}
      <Link to="/feed/$feedId/log" params={{ feedId }} className="font-medium underline underline-offset-2">
        See the moderation log
      </Link>
    </p>
  );
}
