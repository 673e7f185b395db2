import {
  LOG_ACTION_LABELS,
  LOG_VIA_LABELS,
  type LogActor,
  type LogEntry,
  PLATFORM_LABELS,
  type Platform,
} from "@curate/core";
import { shortAccountId } from "#web/lib/account";

/** How a part of an entry reads: its value, or why it is not shown. */
export type Shown<T> = { value: T } | { withheld: "private" | "redacted" } | null;

export interface EntryLine {
  seq: number;
  at: string;
  action: LogEntry["action"];
  title: string;
  /** Who acted, as "alice.near", "@bob", or "alice.near as @bob" (long implicit accounts shortened). */
  who: Shown<string>;
  /** The same with whole accounts, for a tooltip. */
  whoInFull: string | null;
  /** Where from: "in the app", "by reply on Bluesky", … */
  where: string;
  item: Shown<string>;
  note: Shown<string>;
  /** What a change, a bulk run or a redaction was, in words. */
  details: string | null;
  hash: string;
}

type Fields = LogEntry["fields"];

function shown<T>(fields: Fields, name: string, read: (value: unknown) => T | null): Shown<T> {
  const field = fields[name];
  if (!field) return null;
  if (field.withheld) return { withheld: field.withheld };
  const value = read(field.value);
  return value === null ? null : { value };
}

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

function actorName(value: unknown, account: (id: string) => string = (id) => id): string | null {
  const actor = value as Partial<LogActor> | null;
  if (!actor || typeof actor !== "object") return null;
  const handle = actor.handle ? `@${actor.handle.replace(/^@+/, "")}` : null;
  const name = actor.account ? account(actor.account) : null;
  if (name && handle) return `${name} as ${handle}`;
  return name || handle;
}

const networkLabel = (network: string | null) =>
  network && network in PLATFORM_LABELS ? PLATFORM_LABELS[network as Platform] : network;

function where(entry: LogEntry): string {
  const network = networkLabel(entry.network);
  if (!network || entry.via === "app" || entry.via === "system" || entry.via === "api_token")
    return LOG_VIA_LABELS[entry.via];
  return entry.via === "reply" ? `by post on ${network}` : `${LOG_VIA_LABELS[entry.via]} (${network})`;
}

const list = (values: unknown) => (Array.isArray(values) ? values.filter((v) => typeof v === "string") : []);

/** "X: amy, bea; Bluesky: cat" from per-network handle lists. */
function handles(lists: unknown): string {
  if (!lists || typeof lists !== "object") return "";
  return Object.entries(lists as Record<string, unknown>)
    .map(
      ([network, names]) =>
        `${networkLabel(network)}: ${list(names)
          .map((n) => `@${n}`)
          .join(", ")}`,
    )
    .join("; ");
}

function addedRemoved(added: string, removed: string, capitalised = true): string | null {
  const parts = [added && `added ${added}`, removed && `removed ${removed}`].filter(Boolean);
  if (!parts.length) return null;
  const sentence = parts.join("; ");
  return capitalised ? sentence.replace(/^./, (first) => first.toUpperCase()) : sentence;
}

function describeDetails(entry: LogEntry): string | null {
  const details = entry.fields.details?.value as Record<string, unknown> | undefined;
  const history = entry.fields.history?.value as { count?: number } | undefined;
  switch (entry.action) {
    case "genesis":
      return history?.count
        ? `Commits to the ${history.count} ${history.count === 1 ? "decision" : "decisions"} made before the log began.`
        : "Nothing was decided in this feed before the log began.";
    case "approvers_changed":
      return details ? addedRemoved(handles(details.added), handles(details.removed)) : null;
    case "admins_changed":
      return details ? addedRemoved(list(details.added).join(", "), list(details.removed).join(", ")) : null;
    case "rules_changed": {
      const changes = Array.isArray(details?.changes)
        ? (details.changes as Array<Record<string, unknown>>)
        : [];
      return (
        changes
          .map((change) =>
            change.rule === "blacklist"
              ? `Blacklist: ${addedRemoved(handles(change.added), handles(change.removed), false) ?? "changed"}`
              : `${String(change.rule)}: ${change.before ?? "unset"} → ${change.after ?? "unset"}`,
          )
          .join(". ") || null
      );
    }
    case "bulk_run": {
      if (!details) return null;
      const verb = details.action === "reject" ? "Reject" : "Approve";
      const search = details.search ? ` matching “${String(details.search)}”` : "";
      return `${verb} ${details.posts} pending posts${search}`;
    }
    case "redact":
      return details ? `Entry #${details.entry}: ${list(details.fields).join(", ")} withheld` : null;
    case "retract":
      return typeof details?.publications === "number" && details.publications > 0
        ? `${details.publications} publication(s) taken down`
        : null;
    case "submit":
      return typeof details?.source === "string" ? "Found by the feed's own source" : null;
    case "vote": {
      if (!details) return null;
      const way = details.vote === "reject" ? "To reject" : "To approve";
      return `${way}: ${details.approvals} of ${details.required} approvals so far`;
    }
    case "promote":
    case "demote":
    case "approver_offered":
      return typeof details?.explanation === "string" ? details.explanation : null;
    case "approver_confirmed":
    case "approver_declined":
      return typeof details?.curator === "string"
        ? `${details.curator}${typeof details.explanation === "string" ? `: ${details.explanation}` : ""}`
        : null;
    case "approve":
    case "reject": {
      const quorum = details?.quorum as { approvals?: unknown; rejections?: unknown } | undefined;
      if (quorum) {
        const approvals = list(quorum.approvals);
        const rejections = typeof quorum.rejections === "number" ? quorum.rejections : 0;
        return [
          `Quorum: ${approvals.length} ${approvals.length === 1 ? "approval" : "approvals"}${approvals.length ? ` (${approvals.join(", ")})` : ""}`,
          rejections ? `${rejections} ${rejections === 1 ? "rejection" : "rejections"}` : "",
        ]
          .filter(Boolean)
          .join(", ");
      }
      return details?.trustedCurator ? "Submitted by a trusted curator" : null;
    }
    default:
      return null;
  }
}

/** An entry as the log tab shows it. */
export function describeEntry(entry: LogEntry): EntryLine {
  return {
    seq: entry.seq,
    at: entry.at,
    action: entry.action,
    title: LOG_ACTION_LABELS[entry.action],
    who: shown(entry.fields, "actor", (value) => actorName(value, shortAccountId)),
    whoInFull: entry.fields.actor?.withheld ? null : actorName(entry.fields.actor?.value),
    where: where(entry),
    item: shown(entry.fields, "item", text),
    note: shown(entry.fields, "note", text),
    details: describeDetails(entry),
    hash: entry.hash,
  };
}
