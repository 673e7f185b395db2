import type { ModerationRecord } from "@curate/core";

/** What a moderation history entry did, as its line starts: "Approved", "Rejected", "Retracted" or "Undone". */
export function historyVerb(record: Pick<ModerationRecord, "action" | "retraction">): string {
  if (record.action === "undo") return "Undone";
  if (record.retraction) return "Retracted";
  return record.action === "approve" ? "Approved" : "Rejected";
}

/** The history newest first; at the same moment an undo comes after (above) the approval it took back. */
export function newestFirst(history: readonly ModerationRecord[]): ModerationRecord[] {
  const undoLast = (record: ModerationRecord) => (record.action === "undo" ? 1 : 0);
  return [...history].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id || undoLast(b) - undoLast(a),
  );
}
