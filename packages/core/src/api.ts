/** API constants and the public app settings shape; free of zod so any page can use them cheaply. */
export const ERROR_CODES = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const UNAUTHENTICATED_MESSAGE = "User not authenticated or account ID missing.";

/** A list's page size when a query names none, and the largest one a query may ask for. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** The highest zero-based page number a list query may ask for: far past any list a person pages through. */
export const MAX_PAGE = 100_000;

export const ENVIRONMENTS = ["development", "test", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
