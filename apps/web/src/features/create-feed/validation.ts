import { FEED_ID_PATTERN, type FeedDraft } from "@curate/core";

export const MIN_NAME_LENGTH = 3;
export const MIN_DESCRIPTION_LENGTH = 10;
export const HASHTAG_TAKEN = "This hashtag is already taken.";

export interface BasicInformationErrors {
  name?: string;
  description?: string;
  id?: string;
}

/** Step 1's rules (document 2 §5). */
export function validateBasicInformation(draft: Pick<FeedDraft, "name" | "description" | "id">) {
  const errors: BasicInformationErrors = {};
  if (draft.name.trim().length < MIN_NAME_LENGTH) errors.name = "Feed name must be at least 3 characters";
  if (draft.description.trim().length < MIN_DESCRIPTION_LENGTH)
    errors.description = "Description must be at least 10 characters";
  if (draft.id.length < 1) errors.id = "Please provide at least one hashtag";
  else if (!FEED_ID_PATTERN.test(draft.id)) errors.id = "A hashtag may only hold letters, digits, - and _";
  return errors;
}

export function hasErrors(errors: BasicInformationErrors): boolean {
  return Object.values(errors).some(Boolean);
}
