import { handleKey, platformKey } from "@curate/core";
import type { LogDraft } from "./journal.ts";

/** The parts of a feed that say who moderates it and how. */
export interface ModerationSettings {
  id: string;
  admins: readonly string[] | null;
  config: Record<string, unknown>;
}

type HandleLists = Record<string, string[]>;

function moderationOf(settings: ModerationSettings | null): Record<string, unknown> {
  const moderation = settings?.config.moderation;
  return moderation && typeof moderation === "object" && !Array.isArray(moderation)
    ? (moderation as Record<string, unknown>)
    : {};
}

/** Handles per platform, as the moderator rule compares them. */
function handleLists(value: unknown): Map<string, Set<string>> {
  const lists = new Map<string, Set<string>>();
  if (!value || typeof value !== "object" || Array.isArray(value)) return lists;
  for (const [platform, handles] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(handles)) continue;
    const key = platformKey(platform);
    const set = lists.get(key) ?? new Set<string>();
    for (const handle of handles) if (typeof handle === "string") set.add(handleKey(handle));
    lists.set(key, set);
  }
  return lists;
}

/** What was added to and removed from per-platform handle lists; null when nothing changed. */
function listChange(before: unknown, after: unknown): { added: HandleLists; removed: HandleLists } | null {
  const was = handleLists(before);
  const is = handleLists(after);
  const added: HandleLists = {};
  const removed: HandleLists = {};
  for (const platform of new Set([...was.keys(), ...is.keys()])) {
    const old = was.get(platform) ?? new Set();
    const now = is.get(platform) ?? new Set();
    const plus = [...now].filter((handle) => !old.has(handle)).sort();
    const minus = [...old].filter((handle) => !now.has(handle)).sort();
    if (plus.length) added[platform] = plus;
    if (minus.length) removed[platform] = minus;
  }
  return Object.keys(added).length || Object.keys(removed).length ? { added, removed } : null;
}

function accounts(list: readonly string[] | null | undefined): Set<string> {
  return new Set((list ?? []).map((account) => account.trim().toLowerCase()));
}

/**
 * The log entries a feed's creation or save makes: who may moderate it (approvers, admins) and how (the blacklist,
 * the undo window, whether rejections name their moderator, any other moderation setting) — each only if it
 * changed. Other settings (channels, sources) are the config history's, not the moderation log's.
 */
export function moderationChanges(
  before: ModerationSettings | null,
  after: ModerationSettings,
  account: string,
): LogDraft[] {
  const common = { feedId: after.id, via: "app" as const, actor: { account, handle: null } };
  const drafts: LogDraft[] = [];
  const was = moderationOf(before);
  const is = moderationOf(after);

  const approvers = listChange(was.approvers, is.approvers);
  if (approvers) drafts.push({ ...common, action: "approvers_changed", details: approvers });

  const oldAdmins = accounts(before?.admins);
  const newAdmins = accounts(after.admins);
  const addedAdmins = [...newAdmins].filter((admin) => !oldAdmins.has(admin)).sort();
  const removedAdmins = [...oldAdmins].filter((admin) => !newAdmins.has(admin)).sort();
  if (addedAdmins.length || removedAdmins.length) {
    drafts.push({
      ...common,
      action: "admins_changed",
      details: { added: addedAdmins, removed: removedAdmins },
    });
  }

  const rules: Array<Record<string, unknown>> = [];
  const blacklist = listChange(was.blacklist, is.blacklist);
  if (blacklist) rules.push({ rule: "blacklist", ...blacklist });
  const others = [...new Set([...Object.keys(was), ...Object.keys(is)])]
    .filter((rule) => rule !== "approvers" && rule !== "blacklist")
    .sort();
  for (const rule of others) {
    // As JSON text: a setting may hold any JSON, and the log's canonical form takes whole numbers only.
    const old = was[rule] === undefined ? null : JSON.stringify(was[rule]);
    const now = is[rule] === undefined ? null : JSON.stringify(is[rule]);
    if (old !== now) rules.push({ rule, before: old, after: now });
  }
  if (rules.length) drafts.push({ ...common, action: "rules_changed", details: { changes: rules } });
  return drafts;
}
