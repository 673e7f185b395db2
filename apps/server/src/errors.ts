import { ERROR_CODES, type ErrorCode, UNAUTHENTICATED_MESSAGE } from "@curate/core";
import type { ZodError } from "zod";

/**
 * The one error type services, jobs and routes throw. It knows nothing of HTTP beyond a status number: the http
 * floor turns it into the envelope.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: (typeof ERROR_CODES)[ErrorCode];
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
  }

  static validation(message: string, details?: unknown) {
    return new AppError("VALIDATION_ERROR", message, details);
  }
  static fromZod(error: ZodError, where: string) {
    const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    return new AppError("VALIDATION_ERROR", `Invalid ${where}: ${summary}`, issues);
  }
  static unauthenticated() {
    return new AppError("UNAUTHENTICATED", UNAUTHENTICATED_MESSAGE);
  }
  static forbidden(message = "You do not have permission to do this.") {
    return new AppError("FORBIDDEN", message);
  }
  static notFound(message: string) {
    return new AppError("NOT_FOUND", message);
  }
  static conflict(message: string) {
    return new AppError("CONFLICT", message);
  }
  /** A service we depend on cannot answer now; never to be read as a "no". */
  static unavailable(message: string, details?: unknown) {
    return new AppError("UNAVAILABLE", message, details);
  }
}

const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
]);

/** Walks the cause chain (drivers and Drizzle wrap errors) looking for a lost or refused connection. */
export function isDatabaseDown(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown; message?: string } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (typeof e.code === "string" && CONNECTION_ERROR_CODES.has(e.code)) return true;
    if (
      typeof e.message === "string" &&
      /Connection terminated|PGlite is closed|pool after calling end|Client was closed|connection error and is not queryable|terminating connection/i.test(
        e.message,
      )
    )
      return true;
  }
  return false;
}

function isMalformedJson(err: Error) {
  return err instanceof SyntaxError || ("status" in err && err.status === 400 && /json/i.test(err.message));
}

/**
 * What any thrown value means to a caller: an AppError as it is, a body that is not JSON as a validation
 * error, a lost database as UNAVAILABLE (an outage is never an answer), anything else as INTERNAL_ERROR.
 */
/** Statuses the HTTP layer's own exceptions (media type gates, body parsers) carry, as this API's codes. */
const CLIENT_ERROR_CODES: Partial<Record<number, ErrorCode>> = {
  400: "VALIDATION_ERROR",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof Error && isMalformedJson(err)) {
    return AppError.validation("Request body is not valid JSON.");
  }
  const status = (err as { status?: unknown } | null)?.status;
  const code = typeof status === "number" ? CLIENT_ERROR_CODES[status] : undefined;
  if (code) {
    return new AppError(
      code,
      code === "UNSUPPORTED_MEDIA_TYPE"
        ? "Send the request body as application/json."
        : (err as Error).message,
    );
  }
  if (isDatabaseDown(err)) {
    return AppError.unavailable("The database is unavailable. Please try again shortly.");
  }
  return new AppError("INTERNAL_ERROR", "An unexpected error occurred.");
}
