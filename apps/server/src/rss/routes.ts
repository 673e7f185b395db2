import { FEED_LIMITS, feedRecentItemsSchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { type Context, Hono } from "hono";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { errorBody, ok } from "../http/envelope.ts";
import { CONTENT_TYPES, type RssFormat, xmlError } from "./documents.ts";
import { feedRecentItems } from "./recent-items.ts";
import { createRssService, type RssDocument, type RssService } from "./service.ts";

/** Readers poll; five minutes matches what the web app caches a feed for. */
const CACHE_CONTROL = "public, max-age=300";

const FILES: Record<string, RssFormat> = { "rss.xml": "rss", "atom.xml": "atom", "feed.json": "json" };

/** Whether an If-None-Match header names this ETag (weak comparison, lists and `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === bare;
  });
}

/** If-Modified-Since is consulted only without If-None-Match (RFC 9110 §13.1.3). */
function notModified(c: Context, document: Pick<RssDocument, "etag" | "lastModified">): boolean {
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch) return matches(ifNoneMatch, document.etag);
  const since = Date.parse(c.req.header("if-modified-since") ?? "");
  return !Number.isNaN(since) && document.lastModified.getTime() <= since;
}

/** Whether the client takes gzip (`gzip` or `*` with a q above 0). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((entry) => {
    const [name, ...params] = entry.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return (name === "gzip" || name === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
}

function answer(
  c: Context,
  type: string,
  document: Pick<RssDocument, "etag" | "lastModified"> & Partial<RssDocument>,
) {
  c.header("ETag", document.etag);
  c.header("Last-Modified", document.lastModified.toUTCString());
  c.header("Cache-Control", CACHE_CONTROL);
  // Said here, before the answer exists: the compression middleware would otherwise add it afterwards, rebuilding
  // the finished answer around its body as a stream, which writes a large document several times slower.
  c.header("Vary", "Accept-Encoding");
  if (!document.body || !document.gzipped || notModified(c, document)) return c.body(null, 304);
  c.header("Content-Type", type);
  if (!acceptsGzip(c.req.header("accept-encoding"))) return c.body(document.body, 200);
  // Compressed when it was built; the compression middleware leaves an answer that has an encoding alone.
  c.header("Content-Encoding", "gzip");
  return c.body(document.gzipped, 200);
}

function notFound(c: Context, format: RssFormat | "xml", message: string) {
  c.header("Cache-Control", "public, max-age=60");
  if (format === "json") return c.json(errorBody(AppError.notFound(message)), 404);
  return c.body(xmlError(404, message), 404, { "Content-Type": CONTENT_TYPES.xml });
}

const services = new WeakMap<AppDeps, RssService>();

/** One RSS service per app: the files and the feed page's recent items share its documents and their cache. */
function rssServiceOf(deps: AppDeps): RssService {
  let service = services.get(deps);
  if (!service) {
    service = createRssService({
      db: deps.database.db,
      publicUrl: deps.env.PUBLIC_URL,
      version: deps.version,
      stateTtlMs: deps.env.READ_CACHE_TTL_MS,
    });
    deps.changes.subscribe(service.forget);
    services.set(deps, service);
  }
  return service;
}

const recentItemsRoute = createRoute({
  method: "get",
  path: "/feeds/{id}/recent-items",
  tags: ["feeds"],
  summary: "What the feed has published, read from its RSS file (the stream's RSS output, else a recap's)",
  description:
    "The items of the feed's RSS file, newest as the file orders them, at most 1,000. `source` is the file read, " +
    "null when the feed has no RSS output this deployment reads (then no items). The file comes from this " +
    "deployment's RSS service or from a host in RSS_ALLOWED_HOSTS.",
  request: { params: idParam("id", "Feed id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(feedRecentItemsSchema), "The items and the file they come from"),
    404: errorResponse("No such feed (NOT_FOUND)"),
    503: errorResponse(
      "The RSS file could not be fetched or read (UNAVAILABLE; `details.reason`: fetch-failed, invalid-xml or invalid-feed)",
    ),
  },
});

/** The feed page's read of its published items (GET /api/feeds/{id}/recent-items). */
export function recentItemRoutes(deps: AppDeps) {
  const router = createRouter({ writes: "read" }, deps.env);
  const itemsDeps = {
    db: deps.database.db,
    env: deps.env,
    rss: rssServiceOf(deps),
    logger: deps.logger,
  };
  router.openapi(recentItemsRoute, async (c) =>
    ok(c, await feedRecentItems(itemsDeps, c.get("user"), c.req.valid("param").id.toLowerCase())),
  );
  return router;
}

/**
 * The built-in RSS service's public files, open to every origin: `/rss/{feedId}/rss.xml` (RSS 2.0), `atom.xml`
 * (Atom 1.0), `feed.json` (JSON Feed 1.1) and `/rss/opml.xml`. A missing one is a 404 in the file's own format,
 * never the app's HTML (readers would choke on it).
 */
export function rssRoutes(deps: AppDeps) {
  const service = rssServiceOf(deps);
  const router = new Hono();
  // Open to every origin. Set before the answer exists (hono/cors sets them on a placeholder answer, which makes
  // Hono rebuild the real one around its body as a stream: several times slower for a large document).
  router.use(async (c, next) => {
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", "ETag, Last-Modified");
    await next();
  });
  router.options("*", (c) =>
    c.body(null, 204, {
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "If-None-Match, If-Modified-Since",
      "Access-Control-Max-Age": "86400",
    }),
  );

  router.get("/opml.xml", async (c) => {
    const document = await service.opml();
    return answer(c, CONTENT_TYPES.opml, document);
  });

  router.get("/:feedId/:file", async (c) => {
    const format = FILES[c.req.param("file")];
    if (!format) return notFound(c, "xml", `No RSS file at ${c.req.path}.`);
    const feedId = c.req.param("feedId").toLowerCase();
    const missing = `No RSS feed "${feedId.slice(0, FEED_LIMITS.idLength)}" here.`;
    if (feedId.length > FEED_LIMITS.idLength) return notFound(c, format, missing);
    const ifNoneMatch = c.req.header("if-none-match");
    const document = await service.document(
      feedId,
      format,
      ifNoneMatch ? (etag) => matches(ifNoneMatch, etag) : undefined,
    );
    if (!document) return notFound(c, format, missing);
    return answer(c, CONTENT_TYPES[format], document);
  });

  router.all("*", (c) => notFound(c, "xml", `No RSS file at ${c.req.path}.`));
  return router;
}
