/**
 * The public moderation log of a feed (docs/decisions/0027): what its entries say and how the web reads them. Free
 * of zod so the log tab's rendering can use it without the schema library.
 */

/** What an entry records. `genesis` opens a feed's log and commits to the moderation history before it. */
export const LOG_ACTIONS = [
  "genesis",
  "submit",
  "approve",
  "reject",
  "undo",
  "retract",
  "vote",
  "promote",
  "demote",
  "approver_offered",
  "approver_confirmed",
  "approver_declined",
  "bulk_run",
  "approvers_changed",
  "admins_changed",
  "rules_changed",
  "redact",
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];

/**
 * Where a decision came from: the web app, a reply on a network, an approver's own submission (auto-approval), a
 * background bulk run, one of the feed's own sources, the server itself (the genesis), or a script with its owner's
 * personal API token (which token stays in the owner's private activity).
 */
export const LOG_VIAS = [
  "app",
  "reply",
  "auto_approval",
  "bulk_run",
  "feed_source",
  "system",
  "api_token",
] as const;
export type LogVia = (typeof LOG_VIAS)[number];

/** The parts of an entry that can be withheld while the chain still commits to them (each is digested alone). */
export const LOG_FIELDS = ["actor", "item", "note", "details", "history"] as const;
export type LogField = (typeof LOG_FIELDS)[number];

/** What a feed's managers may withhold for good after the fact (a note, the item, who did it). */
export const REDACTABLE_LOG_FIELDS = ["actor", "item", "note"] as const satisfies readonly LogField[];
export type RedactableLogField = (typeof REDACTABLE_LOG_FIELDS)[number];

/** Who acted: their Curate (NEAR) account and/or the handle they used on the entry's network. */
export interface LogActor {
  account: string | null;
  handle: string | null;
}

export const LOG_ACTION_LABELS: Record<LogAction, string> = {
  genesis: "Log started",
  submit: "Submitted",
  approve: "Approved",
  reject: "Rejected",
  undo: "Approval undone",
  retract: "Retracted",
  vote: "Voted",
  promote: "Curator trusted",
  demote: "Curator no longer trusted",
  approver_offered: "Approver rights offered",
  approver_confirmed: "Approver rights confirmed",
  approver_declined: "Approver rights declined",
  bulk_run: "Bulk decision started",
  approvers_changed: "Approvers changed",
  admins_changed: "Admins changed",
  rules_changed: "Moderation rules changed",
  redact: "Entry redacted",
};

export const LOG_VIA_LABELS: Record<LogVia, string> = {
  app: "in the app",
  reply: "by reply",
  auto_approval: "auto-approved",
  bulk_run: "bulk run",
  feed_source: "feed source",
  system: "by the server",
  api_token: "via API token",
};

/** Entries per page of the log tab. */
export const LOG_PAGE_SIZE = 25;

/** The file served at this path lists the instance's log keys, current and earlier. */
export const LOG_KEYS_PATH = "/.well-known/curate/log-key.json";
