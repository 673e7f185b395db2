import type { ModerationRecord } from "@curate/core";
import { HistoryIcon, RotateCcwIcon } from "lucide-react";
import { RelativeTime } from "#web/components/ui/relative-time";
import { SectionHeader } from "#web/components/ui/section-header";
import { ModeratorName } from "#web/features/moderation/components/ModeratorName";
import { historyVerb, newestFirst } from "#web/features/moderation/history";
import { formatDateTime } from "#web/lib/format";

const SOURCE_LABELS: Record<ModerationRecord["source"], string> = {
  ui: "in the app",
  platform_comment: "by reply",
  auto_approval: "automatically",
  super_admin_direct: "by a super admin",
};

/** Every decision on the post and every undo, newest first: "Approved in #ai by alice in the app · 2 min ago". */
export function ModerationHistory({ history }: { history: readonly ModerationRecord[] }) {
  const entries = newestFirst(history);
  return (
    <section aria-labelledby="submission-history" className="flex flex-col gap-3">
      <SectionHeader id="submission-history" title="Moderation history" />
      {entries.length === 0 ? (
        <p className="text-sm text-muted">No moderator has decided on this post yet.</p>
      ) : (
        <ol className="flex flex-col gap-3" data-testid="moderation-history">
          {entries.map((record) => {
            const Icon = record.action === "undo" ? RotateCcwIcon : HistoryIcon;
            return (
              <li
                key={`${record.action}-${record.id}`}
                className="flex gap-3 text-sm"
                data-testid="moderation-history-entry"
              >
                <Icon className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="text-muted">
                    <span className="font-medium text-ink">{historyVerb(record)}</span> in #{record.feedId} by{" "}
                    <ModeratorName record={record} className="align-bottom" /> {SOURCE_LABELS[record.source]}{" "}
                    · <RelativeTime date={record.createdAt} title={formatDateTime(record.createdAt)} />
                  </p>
                  {record.note ? <p className="mt-0.5 break-words text-ink">“{record.note}”</p> : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
