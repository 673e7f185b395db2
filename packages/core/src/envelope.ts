import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./api.ts";

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

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), pagination: paginationSchema });
}

export interface Paged<T> {
  items: T[];
  pagination: Pagination;
}
