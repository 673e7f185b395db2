import { EMPTY_FEED_DRAFT, type FeedDraft } from "@curate/core";
import { useSyncExternalStore } from "react";

/**
 * Core's draft plus what only the wizard decides: built-in steps of the default stream the user chose to leave
 * out (by short name, `ai-transform`), after being warned that this server cannot fill their `{{NAME}}`.
 */
export interface WizardDraft extends FeedDraft {
  leftOut: string[];
}

export const EMPTY_WIZARD_DRAFT: WizardDraft = { ...EMPTY_FEED_DRAFT, leftOut: [] };

const STORAGE_KEY = "curate:create-feed-draft";

/** Session storage keeps the draft across the steps and a reload, and forgets it with the tab. */
function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

function isDraftLike(value: unknown): value is Partial<WizardDraft> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whatever was stored, made into a complete draft; fields of the wrong type fall back to the defaults. */
export function reviveDraft(stored: unknown): WizardDraft {
  if (!isDraftLike(stored)) return EMPTY_WIZARD_DRAFT;
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const approvers = Array.isArray(stored.approvers)
    ? stored.approvers.flatMap((approver) =>
        approver && typeof approver.handle === "string"
          ? [{ handle: approver.handle, platform: "Twitter" as const }]
          : [],
      )
    : [];
  const telegram =
    stored.telegram && typeof stored.telegram === "object"
      ? { chatId: text(stored.telegram.chatId), messageThreadId: text(stored.telegram.messageThreadId) }
      : null;
  return {
    name: text(stored.name),
    description: text(stored.description),
    id: text(stored.id),
    image: text(stored.image),
    enabled: typeof stored.enabled === "boolean" ? stored.enabled : true,
    approvers,
    telegram,
    leftOut: Array.isArray(stored.leftOut)
      ? stored.leftOut.filter((name): name is string => typeof name === "string")
      : [],
  };
}

function load(): WizardDraft {
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return EMPTY_WIZARD_DRAFT;
  try {
    return reviveDraft(JSON.parse(raw));
  } catch {
    return EMPTY_WIZARD_DRAFT;
  }
}

let current: WizardDraft | null = null;
const listeners = new Set<() => void>();

function snapshot(): WizardDraft {
  current ??= load();
  return current;
}

function publish(next: WizardDraft) {
  current = next;
  storage()?.setItem(STORAGE_KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

export const feedDraftStore = {
  get: snapshot,
  update(change: Partial<WizardDraft> | ((draft: WizardDraft) => WizardDraft)) {
    const draft = snapshot();
    publish(typeof change === "function" ? change(draft) : { ...draft, ...change });
  },
  reset() {
    storage()?.removeItem(STORAGE_KEY);
    current = EMPTY_WIZARD_DRAFT;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** The wizard's shared draft; every step reads and writes the same one. */
export function useFeedDraft(): WizardDraft {
  return useSyncExternalStore(feedDraftStore.subscribe, feedDraftStore.get, () => EMPTY_WIZARD_DRAFT);
}
