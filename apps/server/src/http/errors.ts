import { ERROR_CODES, type ErrorCode, UNAUTHENTICATED_MESSAGE } from "@curate/core";
import type { ZodError } from "zod";

/** The one error type services and routes throw; the error handler turns it into the envelope. */
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
}
