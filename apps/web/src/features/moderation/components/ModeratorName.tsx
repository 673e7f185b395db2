import type { ModerationRecord } from "@curate/core";
import { Handle } from "#web/components/ui/handle";
import { shortAccountId } from "#web/lib/account";
import { cn } from "#web/lib/cn";

type Moderator = Pick<
  ModerationRecord,
  "moderatorAccountId" | "moderatorNetwork" | "moderatorHandle" | "moderatorProfileUrl"
>;

/**
 * Who decided: a handle on its network (its mark, `@name`, its profile), or a Curate account by its NEAR name —
 * never the stored key (`mastodon:mo@social.example`).
 */
export function ModeratorName({ record, className }: { record: Moderator; className?: string }) {
  if (record.moderatorNetwork) {
    return (
      <Handle
        platform={record.moderatorNetwork}
        handle={record.moderatorHandle}
        href={record.moderatorProfileUrl}
        className={cn("font-medium text-ink", className)}
      />
    );
  }
  return (
    <span className={cn("font-medium text-ink", className)} title={record.moderatorAccountId}>
      {shortAccountId(record.moderatorHandle)}
    </span>
  );
}
