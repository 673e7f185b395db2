import type { DehydratedState, Query } from "@tanstack/react-query";

/** The id of the non-executing JSON block a server-rendered page carries its state in. */
export const SSR_STATE_ID = "curate-ssr-state";

/** What the server embeds next to the HTML it rendered: the public data it rendered with, and when. */
export interface SsrState {
  /** The server's clock at render time: relative times hydrate from it ("8s ago" reads the same). */
  renderedAt: number;
  queries: DehydratedState;
}

/**
 * Query families whose answers are the same for every visitor. Only these are fetched by the server and embedded in
 * a page; anything about the visitor (the session, moderation rights, their feeds) is left for the browser to ask.
 */
const PUBLIC_QUERY_ROOTS = new Set([
  "config",
  "feeds",
  "submissions",
  "leaderboard",
  "rss",
  "queue-health",
  "email-status",
  "trust",
]);

export function isPublicQuery(query: Pick<Query, "queryKey">): boolean {
  const root = query.queryKey[0];
  return typeof root === "string" && PUBLIC_QUERY_ROOTS.has(root);
}

/** The state a server-rendered page carries, or null for the plain app shell (or a block that cannot be read). */
export function readSsrState(doc: Document): SsrState | null {
  const text = doc.getElementById(SSR_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    const state = JSON.parse(text) as Partial<SsrState>;
    return typeof state.renderedAt === "number" && state.queries ? (state as SsrState) : null;
  } catch {
    return null;
  }
}
