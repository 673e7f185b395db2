import type { ErrorEnvelope, SuccessEnvelope } from "@curate/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppError } from "../errors.ts";

function envelope<T, S extends 200 | 201 | 202>(status: S, data: T, message?: string): SuccessEnvelope<T> {
  return {
    success: true,
    statusCode: status,
    timestamp: new Date().toISOString(),
    ...(message ? { message } : {}),
    data,
  };
}

export function ok<T>(c: Context, data: T, message?: string) {
  return c.json(envelope(200, data, message), 200);
}

export function created<T>(c: Context, data: T, message?: string) {
  return c.json(envelope(201, data, message), 201);
}

/** 202: the work was accepted and goes on in the background (its progress is another resource). */
export function accepted<T>(c: Context, data: T, message?: string) {
  return c.json(envelope(202, data, message), 202);
}

export function errorBody(error: AppError): ErrorEnvelope {
  return {
    success: false,
    statusCode: error.status,
    timestamp: new Date().toISOString(),
    error: {
      message: error.message,
      code: error.code,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}

export function fail(c: Context, error: AppError) {
  return c.json(errorBody(error), error.status as ContentfulStatusCode);
}
