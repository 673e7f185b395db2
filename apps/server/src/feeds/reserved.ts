import { ALL_FEED_ID } from "@curate/core";
import type { MiddlewareHandler } from "hono";
import { isMutation } from "../auth/middleware.ts";
import { AppError } from "../errors.ts";

const UNDER_A_FEED = /^\/api\/feeds\/([^/]+)(?:\/|$)/;

function feedIdOf(path: string): string | null {
  const raw = UNDER_A_FEED.exec(path)?.[1];
  if (!raw) return null;
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The catch-all feed collects posts that name no feed and belongs to no one: nobody may change it, its secrets or
 * its history, super admins included. It answers as its pages do, as no such feed, before any session or origin
 * check, so every caller gets the same answer.
 */
export const reservedFeedWrites: MiddlewareHandler = async (c, next) => {
  if (isMutation(c.req.method) && feedIdOf(c.req.path) === ALL_FEED_ID) {
    throw AppError.notFound(`Feed "${ALL_FEED_ID}" not found.`);
  }
  await next();
};
