import { z } from "zod";
import { DEFAULT_PAGE_SIZE, ERROR_CODES, type ErrorCode, MAX_PAGE, MAX_PAGE_SIZE } from "./api.ts";

export const errorBodySchema = z.object({
  message: z.string(),
  code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  details: z.unknown().optional(),
});

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  statusCode: z.number().int().min(100).max(599),
  timestamp: z.string(),
  error: errorBodySchema,
});

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    statusCode: z.number().int().min(100).max(599),
    timestamp: z.string(),
    message: z.string().optional(),
    data,
  });
}

export interface SuccessEnvelope<T> {
  success: true;
  statusCode: number;
  timestamp: string;
  message?: string;
  data: T;
}

export const paginationSchema = z.object({
  page: z.number().int().min(0),
  limit: z.number().int().min(1),
  hasNextPage: z.boolean(),
  totalCount: z.number().int().min(0),
  /** True when more than `totalCount` items match: a search counts up to a cap (docs/decisions/0014). */
  totalCountCapped: z.boolean().optional(),
  /** Where the page starts, when it was asked by `offset` (then `page` is the page that offset falls in). */
  offset: z.number().int().min(0).optional(),
});

export type Pagination = z.infer<typeof paginationSchema>;

/** A list query's page size: 1 to `max` (MAX_PAGE_SIZE unless the list sets a smaller bound), `fallback` if not asked. */
export function pageSizeQuery(max: number = MAX_PAGE_SIZE, fallback: number = DEFAULT_PAGE_SIZE) {
  return z.coerce
    .number()
    .int()
    .min(1, "limit must be at least 1")
    .max(max, `limit must be at most ${max}`)
    .default(fallback);
}

/**
 * The `page` (zero-based, up to MAX_PAGE) and `limit` of a paged list's query, for the lists' query schemas to
 * spread in: one definition of paging for every list (the web's page sizes and search params use the same limits).
 */
export const pageQuery = {
  page: z.coerce.number().int().min(0, "page must be 0 or more").max(MAX_PAGE).default(0),
  limit: pageSizeQuery(),
};

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), pagination: paginationSchema });
}

export interface Paged<T> {
  items: T[];
  pagination: Pagination;
}
