import type { ModerationRecord } from "@curate/core";
import { MessageSquareTextIcon } from "lucide-react";
import type { ReactNode } from "react";
import { RelativeTime } from "#web/components/ui/relative-time";
import { historyVerb } from "#web/features/moderation/history";
import { ModeratorName } from "./ModeratorName";

const SOURCE_LABELS: Record<ModerationRecord["source"], string> = {
  ui: "in the app",
  platform_comment: "by reply",
  auto_approval: "automatically (curator is an approver)",
  super_admin_direct: "by a super admin",
};

/** The latest entry of a submission's history in this feed: who, how, when, and the note if one was given. */
export function DecisionNote({ record, action }: { record: ModerationRecord; action?: ReactNode }) {
  const verb = historyVerb(record);
  return (
    <div
      className="mt-4 flex flex-wrap items-start justify-between gap-3 border-t border-line pt-3 text-sm"
      data-testid="decision-note"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-1.5 text-muted">
          <MessageSquareTextIcon className="size-4 shrink-0" aria-hidden="true" />
          {/* The flex gap draws the spaces; the text nodes keep them when the line is read out or copied. */}
          {verb} by <ModeratorName record={record} /> {SOURCE_LABELS[record.source]}{" "}
          <span aria-hidden="true">·</span>
          <RelativeTime date={record.createdAt} />
        </p>
        {record.note ? <p className="mt-1 break-words text-ink">“{record.note}”</p> : null}
      </div>
      {action}
    </div>
  );
}

/** The newest record for this feed, if the submission was decided there. */
export function latestDecision(history: readonly ModerationRecord[], feedId: string) {
  let latest: ModerationRecord | undefined;
  for (const record of history) {
    if (record.feedId !== feedId) continue;
    if (!latest || record.createdAt >= latest.createdAt) latest = record;
  }
  return latest;
}
