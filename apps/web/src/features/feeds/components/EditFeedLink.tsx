import { Link } from "@tanstack/react-router";
import { PencilIcon } from "lucide-react";
import { buttonClasses } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";

/** The way from a feed to its editor, for those who may edit it. */
export function EditFeedLink({
  feedId,
  className,
  label = "Edit feed",
}: {
  feedId: string;
  className?: string;
  label?: string;
}) {
  return (
    <Link
      to="/edit/feed/$feedId"
      params={{ feedId }}
      className={cn(buttonClasses("secondary", "sm"), className)}
      data-testid="edit-feed-link"
    >
      <PencilIcon aria-hidden="true" />
      {label}
    </Link>
  );
}
