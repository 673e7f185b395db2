import { z } from "zod";

export const ERROR_CODES = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const UNAUTHENTICATED_MESSAGE = "User not authenticated or account ID missing.";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

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
});

export type Pagination = z.infer<typeof paginationSchema>;

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), pagination: paginationSchema });
}

export interface Paged<T> {
  items: T[];
  pagination: Pagination;
}

export const ENVIRONMENTS = ["development", "test", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Public, non-secret settings the web app reads at start (GET /api/config). */
export interface AppConfig {
  botHandle: string;
  environment: Environment;
  version: string;
  /** "local": POST /api/upload; "pinata": a key from GET /api/upload/get-auth-key, then a direct upload. */
  imageUpload: "local" | "pinata";
  /** Where the browser sends a Pinata upload (multipart `file`; answers `IpfsHash`) and how it is shown. */
  pinata?: { uploadUrl: string; gatewayUrl: string };
}
