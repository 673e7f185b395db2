import { z } from "zod";
import { MAX_SEARCH_LENGTH, sortOrderSchema, statusFilterSchema } from "./submissions.ts";

/**
 * Search parameters of list pages (Explore, feed curation). Anything outside the enums falls back
 * to the default instead of failing the page.
 */
export const listSearchSchema = z.object({
  status: statusFilterSchema.optional().catch(undefined),
  sortOrder: sortOrderSchema.optional().catch(undefined),
  q: z
    .string()
    .max(MAX_SEARCH_LENGTH)
    .optional()
    .catch(undefined)
    .transform((q) => (q?.trim() ? q : undefined)),
});
export type ListSearch = z.infer<typeof listSearchSchema>;
