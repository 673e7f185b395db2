import type { MiddlewareHandler } from "hono";

/** A public GET route whose answer is the same for every visitor, and the query parameters it reads. */
export interface CacheableRoute {
  pattern: RegExp;
  params: readonly string[];
}

export interface ReadCacheOptions {
  ttlMs: number;
  /** The most bytes all entries may hold together; the oldest go first beyond it. */
  maxBytes: number;
  routes: readonly CacheableRoute[];
  /** Milliseconds since the epoch; tests move it. */
  clock?: () => number;
}

interface Entry {
  expires: number;
  body: string;
  contentType: string;
  bytes: number;
}

const BEARER = /^\s*Bearer(?:\s|$)/i;

/** An answer larger than this share of the budget is served but never kept. */
const LARGEST_SHARE = 0.05;

/**
 * A very short-lived cache of public read answers, so a crowd polling the same pages (the web app refetches every
 * 10 s) costs one query per second instead of one per request. Every change notice clears it (http/changes.ts:
 * writes through any process sharing the database, intake, jobs), so a user always reads their own changes and the
 * other processes' as soon as their notice arrives; the TTL bounds what a lost notice can cost. An answer read
 * while a notice arrived is served but not kept: it may predate the change.
 *
 * Bounded by construction: the key is the path plus only the parameters the route reads (sorted), so `?v=1`,
 * `?v=2`… share one entry; entries live in a byte budget, oldest evicted first; expired entries go as soon as
 * anything is stored.
 */
export function createReadCache(options: ReadCacheOptions) {
  const entries = new Map<string, Entry>();
  const clock = options.clock ?? Date.now;
  let bytes = 0;
  /** How many times it was cleared. */
  let generation = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.bytes;
    entries.delete(key);
  };
  const invalidate = () => {
    generation += 1;
    entries.clear();
    bytes = 0;
  };

  const keyFor = (url: URL): string | null => {
    const route = options.routes.find((r) => r.pattern.test(url.pathname));
    if (!route) return null;
    const params = route.params
      .filter((name) => url.searchParams.has(name))
      .map((name) => `${name}=${encodeURIComponent(url.searchParams.get(name) ?? "")}`);
    return `${url.pathname}?${params.join("&")}`;
  };

  const store = (key: string, entry: Entry, now: number) => {
    // Insertion order is age order: expired entries and the oldest sit at the front.
    for (const [oldKey, old] of entries) {
      if (old.expires > now && bytes + entry.bytes <= options.maxBytes) break;
      remove(oldKey);
    }
    entries.set(key, entry);
    bytes += entry.bytes;
  };

  const middleware: MiddlewareHandler = async (c, next) => {
    // A request with a bearer credential is answered fresh: whether it is good is not the cache's to know. Other
    // schemes (a proxy's Basic auth in front of the whole site) are no concern of the API's.
    if (options.ttlMs <= 0 || c.req.method !== "GET" || BEARER.test(c.req.header("authorization") ?? "")) {
      return next();
    }
    const key = keyFor(new URL(c.req.url));
    if (!key) return next();
    const now = clock();
    const startedAt = generation;
    const hit = entries.get(key);
    if (hit && hit.expires > now) {
      return c.body(hit.body, 200, { "Content-Type": hit.contentType, "X-Cache": "HIT" });
    }
    if (hit) remove(key);
    await next();
    if (generation !== startedAt) return;
    // An answer for one viewer only (a quarantined feed read by its owner) says so, and is never shared.
    if (c.res.status !== 200 || /\b(private|no-store)\b/.test(c.res.headers.get("cache-control") ?? ""))
      return;
    const body = await c.res.clone().text();
    const size = Buffer.byteLength(body) + key.length;
    if (size > options.maxBytes * LARGEST_SHARE) return;
    remove(key);
    store(
      key,
      {
        expires: now + options.ttlMs,
        body,
        bytes: size,
        contentType: c.res.headers.get("content-type") ?? "application/json",
      },
      now,
    );
  };

  return { middleware, invalidate, stats: () => ({ entries: entries.size, bytes }) };
}
