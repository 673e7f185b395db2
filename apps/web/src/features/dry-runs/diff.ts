import { diffJson, diffWordsWithSpace } from "diff";

/** One piece of a diff: kept, added or removed text. */
export interface DiffPart {
  value: string;
  kind: "same" | "added" | "removed";
}

const partsOf = (changes: Array<{ value: string; added?: boolean; removed?: boolean }>): DiffPart[] =>
  changes.map((change) => ({
    value: change.value,
    kind: change.added ? "added" : change.removed ? "removed" : "same",
  }));

/**
 * A readable diff of a step's previous and new output: words for text, lines of pretty JSON for anything else
 * (keys in a stable order, so moving a key is no change).
 */
export function outputDiff(before: unknown, after: unknown): DiffPart[] {
  if (typeof before === "string" && typeof after === "string")
    return partsOf(diffWordsWithSpace(before, after));
  return partsOf(diffJson((before ?? null) as object, (after ?? null) as object));
}

/** Whether a diff has any change at all. */
export const hasChanges = (parts: DiffPart[]) => parts.some((part) => part.kind !== "same");
