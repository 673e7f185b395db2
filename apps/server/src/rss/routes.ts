import { Hono } from "hono";
import type { AppDeps } from "../context.ts";

/** Feed files under /rss/. A missing one is a 404 in plain text, never the app's HTML (readers would choke on it). */
export function rssRoutes(_deps: AppDeps) {
  const router = new Hono();
  router.get("*", (c) => c.text(`No RSS feed at ${c.req.path}.`, 404));
  return router;
}
