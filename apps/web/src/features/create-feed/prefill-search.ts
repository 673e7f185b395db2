/** /create/feed?name=…&description=…&id=…&image=… prefill values. */
export interface PrefillSearch {
  name?: string;
  description?: string;
  id?: string;
  image?: string;
}

const MAX_PREFILL_LENGTH = 2000;
const text = (value: unknown) =>
  typeof value === "string" && value.length <= MAX_PREFILL_LENGTH ? value : undefined;

/**
 * Starts the draft with those values; anything unusable is dropped. Route search validators load with the route
 * tree on every page, so this is plain code and the module holds nothing else.
 */
export const prefillSearchSchema = {
  parse: (input: Record<string, unknown>): PrefillSearch => ({
    name: text(input.name),
    description: text(input.description),
    id: text(input.id),
    image: text(input.image),
  }),
};
