import { EMPTY_FEED_DRAFT, type FeedDraft } from "@curate/core";
import { useSyncExternalStore } from "react";

const STORAGE_KEY = "curate:create-feed-draft";

/** Session storage keeps the draft across the steps and a reload, and forgets it with the tab. */
function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

function isDraftLike(value: unknown): value is Partial<FeedDraft> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whatever was stored, made into a complete draft; fields of the wrong type fall back to the defaults. */
export function reviveDraft(stored: unknown): FeedDraft {
  if (!isDraftLike(stored)) return EMPTY_FEED_DRAFT;
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
  };
}

function load(): FeedDraft {
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return EMPTY_FEED_DRAFT;
  try {
    return reviveDraft(JSON.parse(raw));
  } catch {
    return EMPTY_FEED_DRAFT;
  }
}

let current: FeedDraft | null = null;
const listeners = new Set<() => void>();

function snapshot(): FeedDraft {
  current ??= load();
  return current;
}

function publish(next: FeedDraft) {
  current = next;
  storage()?.setItem(STORAGE_KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

export const feedDraftStore = {
  get: snapshot,
  update(change: Partial<FeedDraft> | ((draft: FeedDraft) => FeedDraft)) {
    const draft = snapshot();
    publish(typeof change === "function" ? change(draft) : { ...draft, ...change });
  },
  reset() {
    storage()?.removeItem(STORAGE_KEY);
    current = EMPTY_FEED_DRAFT;
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
export function useFeedDraft(): FeedDraft {
  return useSyncExternalStore(feedDraftStore.subscribe, feedDraftStore.get, () => EMPTY_FEED_DRAFT);
}
