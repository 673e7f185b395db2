import type { MiddlewareHandler } from "hono";

/** Public GET answers that are the same for every visitor: lists, feeds and the leaderboard. */
const CACHEABLE = /^\/api\/(submissions(\/.*)?|feeds(\/[^/]+)?|leaderboard)$/;
const MAX_ENTRIES = 2000;

interface Entry {
  expires: number;
  body: string;
  contentType: string;
}

/**
 * A very short-lived cache of public read answers, so a crowd polling the same pages (the web app refetches
 * every 10 s) costs one query per second instead of one per request. Any write through this process clears
 * it, so a user always reads their own changes; other processes see them within the TTL.
 */
export function createReadCache(ttlMs: number) {
  const entries = new Map<string, Entry>();
  const invalidate = () => entries.clear();

  const middleware: MiddlewareHandler = async (c, next) => {
    if (ttlMs <= 0 || c.req.method !== "GET" || !CACHEABLE.test(c.req.path)) return next();
    const key = c.req.url.slice(c.req.url.indexOf("/api/"));
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expires > now) {
      return c.body(hit.body, 200, { "Content-Type": hit.contentType, "X-Cache": "HIT" });
    }
    await next();
    if (c.res.status !== 200) return;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, {
      expires: now + ttlMs,
      body: await c.res.clone().text(),
      contentType: c.res.headers.get("content-type") ?? "application/json",
    });
  };

  return { middleware, invalidate };
}
