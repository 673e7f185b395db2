import {
  FEED_ID_MESSAGES,
  FEED_ID_PATTERN,
  FEED_LIMITS,
  type FeedDraft,
  TELEGRAM_THREAD_ID_MESSAGE,
  X_HANDLE_PATTERN,
} from "@curate/core";

export const MIN_NAME_LENGTH = 3;
export const MIN_DESCRIPTION_LENGTH = 10;
export const HASHTAG_TAKEN = "This hashtag is already taken.";

export interface BasicInformationErrors {
  name?: string;
  description?: string;
  id?: string;
}

/** Step 1's rules: a name, a description and a valid hashtag before the wizard goes on. */
export function validateBasicInformation(draft: Pick<FeedDraft, "name" | "description" | "id">) {
  const errors: BasicInformationErrors = {};
  if (draft.name.trim().length < MIN_NAME_LENGTH) errors.name = "Feed name must be at least 3 characters";
  if (draft.description.trim().length < MIN_DESCRIPTION_LENGTH)
    errors.description = "Description must be at least 10 characters";
  if (draft.id.length < 1) errors.id = FEED_ID_MESSAGES.required;
  else if (draft.id.length > FEED_LIMITS.idLength) errors.id = FEED_ID_MESSAGES.tooLong;
  else if (!FEED_ID_PATTERN.test(draft.id)) errors.id = FEED_ID_MESSAGES.characters;
  return errors;
}

export function hasErrors(errors: BasicInformationErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** Step 2's approver rule: what the server accepts as an X handle, checked before it is added. */
export function approverError(
  handle: string,
  existing: ReadonlyArray<{ handle: string }>,
): string | undefined {
  if (!X_HANDLE_PATTERN.test(handle)) return "An X handle has 1 to 15 letters, digits or _";
  if (existing.some((approver) => approver.handle.toLowerCase() === handle.toLowerCase()))
    return `@${handle} is already an approver`;
  return undefined;
}

/** Telegram message thread ids are whole numbers; empty means the chat's main thread. */
export function threadIdError(threadId: string): string | undefined {
  return threadId.trim() === "" || /^\d+$/.test(threadId.trim()) ? undefined : TELEGRAM_THREAD_ID_MESSAGE;
}
