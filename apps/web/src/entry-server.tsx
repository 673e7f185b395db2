/**
 * The server's way into the app (built by `vite build --ssr`): renders a public page to HTML with the first page
 * of its data, for the browser to paint at once and hydrate (docs/decisions, "server-rendered first paint").
 * Everything is rendered as for a signed-out visitor: the server answers the page's API calls in-process without
 * the visitor's cookie, and only queries every visitor shares are fetched and embedded.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ALL_FEED_ID, type Feed } from "@curate/core";
import { dehydrate, type Query, type QueryClient } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { setRenderClock } from "#web/components/ui/relative-time";
import { feedKeys } from "#web/features/feeds/api";
import { ApiError, setApiFetch } from "#web/lib/api";
import { createQueryClient } from "#web/lib/query-client";
import { isPublicQuery, type SsrState } from "#web/lib/ssr-state";

export { SSR_STATE_ID } from "#web/lib/ssr-state";

import { AppRoot } from "./app-root";
import { createAppRouter } from "./router";

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

const requestFetch = new AsyncLocalStorage<Fetch>();
setApiFetch(() => requestFetch.getStore() ?? fetch);

export interface PageHead {
  title: string;
  description: string;
  /** An absolute or root-relative image for link previews, or null. */
  image: string | null;
}

export type RenderResult =
  | { kind: "page"; html: string; state: SsrState; head: PageHead }
  | { kind: "redirect"; location: string }
  /** Not a page the server renders (private, unknown, failing or too slow): the browser renders it. */
  | { kind: "shell"; reason: string }
  /**
   * A page about a feed that does not exist: the browser renders the app (which says "Feed not found" at once),
   * and browsers and crawlers are told 404.
   */
  | { kind: "not-found"; head: PageHead };

export interface RenderOptions {
  /** Answers the page's API requests (`/api/...`), anonymously. */
  fetch: Fetch;
  /** Give up (the browser renders the page) when the data is not there by then (ms since the epoch). */
  deadline: number;
}

export const SITE_NAME = "Curate";
export const SITE_DESCRIPTION = "Curate: discover autonomous brands powered by curators and AI.";

/** Pages every visitor sees alike; the rest (profiles, editors, moderators' tabs) stay client-rendered. */
const PUBLIC_PAGES = [
  /^\/$/,
  /^\/leaderboard$/,
  /^\/feed\/[^/]+$/,
  /^\/feed\/[^/]+\/(?:curation|token|proposals|points|members)$/,
];

/** Renders that may each discover more data to fetch (one per level of dependent queries). */
const MAX_DISCOVERY_PASSES = 3;

export function isServerRenderedPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return PUBLIC_PAGES.some((page) => page.test(path));
}

/** Pages about one feed: /feed/{id} with its tabs, and its editor. */
const FEED_PAGE = /^\/(?:edit\/)?feed\/([^/]+)(?:\/|$)/;

function feedIdOf(pathname: string): string | null {
  const raw = FEED_PAGE.exec(pathname)?.[1];
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function feedNotFound(feedId: string): RenderResult {
  return {
    kind: "not-found",
    head: {
      title: `Feed not found · ${SITE_NAME}`,
      description: `There is no feed with the hashtag #${feedId} on ${SITE_NAME}.`,
      image: null,
    },
  };
}

/** Whether the API says there is no such feed (the hidden catch-all feed never is one). */
async function isMissingFeed(feedId: string): Promise<boolean> {
  if (feedId.toLowerCase() === ALL_FEED_ID) return true;
  const fetchFeed = requestFetch.getStore() ?? fetch;
  const response = await fetchFeed(`/api/feeds/${encodeURIComponent(feedId)}`, {
    headers: { accept: "application/json" },
  });
  await response.body?.cancel();
  return response.status === 404;
}

export function renderPage(url: string, options: RenderOptions): Promise<RenderResult> {
  return requestFetch.run(options.fetch, () => render(url, options.deadline));
}

async function render(url: string, deadline: number): Promise<RenderResult> {
  const pathname = new URL(url, "http://server.invalid").pathname;
  const feedId = feedIdOf(pathname);
  if (!isServerRenderedPath(pathname)) {
    // The browser renders a feed's private pages, but whether the feed exists is no one's secret.
    if (feedId && (await isMissingFeed(feedId))) return feedNotFound(feedId);
    return { kind: "shell", reason: "not a public page" };
  }

  const queryClient = createQueryClient();
  // One attempt: a failure falls back to the browser, which retries on its own.
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const router = createAppRouter(queryClient, {
    history: createMemoryHistory({ initialEntries: [url] }),
    // Restoring scroll is the browser's business (the server version writes an inline script).
    scrollRestoration: false,
  });
  await router.load();
  const result = router._serverResult;
  if (result?.type === "redirect") {
    const location = result.redirect.headers.get("Location");
    return location ? { kind: "redirect", location } : { kind: "shell", reason: "redirect without a target" };
  }
  const matches = router.state.matches;
  if (feedId && matches.some((match) => match.status === "notFound")) return feedNotFound(feedId);
  if (matches.some((match) => match.status !== "success")) {
    return { kind: "shell", reason: "the route did not load" };
  }

  // The loaders started the data the page is about: if it is slow or failing, the browser renders the page.
  if (!(await settled(queryClient, deadline))) return { kind: "shell", reason: "data too slow" };
  if (failed(queryClient)) {
    const error = feedId ? queryClient.getQueryState(feedKeys.detail(feedId))?.error : null;
    if (feedId && error instanceof ApiError && error.status === 404) return feedNotFound(feedId);
    return { kind: "shell", reason: "an API request failed" };
  }
  const app = <AppRoot queryClient={queryClient} router={router} />;
  const renderedAt = Date.now();
  // A render shows what else the page reads (the feed's top curators, then its recent items once the settings
  // say where they are): fetched too, render after render, as far as it arrives in time; the browser asks for
  // the rest itself.
  for (let pass = 0; pass < MAX_DISCOVERY_PASSES; pass++) {
    renderHtml(app, renderedAt);
    const discovered = queryClient.getQueryCache().getAll().filter(wanted);
    if (discovered.length === 0) break;
    for (const query of discovered) void query.fetch().catch(() => undefined);
    if (!(await settled(queryClient, deadline))) break;
  }
  // Anything about the visitor stays unknown here, as it is when the browser starts hydrating; so does whatever
  // failed or is still on its way (the browser asks again).
  queryClient.removeQueries({
    predicate: (query) => !isPublicQuery(query) || query.state.status !== "success",
  });

  const html = renderHtml(app, renderedAt);
  const state: SsrState = {
    renderedAt,
    queries: dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => query.state.status === "success" && isPublicQuery(query),
      shouldDehydrateMutation: () => false,
    }),
  };
  return { kind: "page", html, state, head: pageHead(pathname, queryClient) };
}

function renderHtml(app: ReactElement, renderedAt: number): string {
  setRenderClock(renderedAt);
  try {
    return renderToString(app);
  } finally {
    setRenderClock(null);
  }
}

function failed(queryClient: QueryClient): boolean {
  return queryClient
    .getQueryCache()
    .getAll()
    .some((query) => isPublicQuery(query) && query.state.status === "error");
}

/** A public query the render read but nobody has fetched yet (and that its reader did not switch off). */
function wanted(query: Query): boolean {
  const enabled = (query.options as { enabled?: unknown }).enabled;
  return (
    isPublicQuery(query) &&
    query.state.status === "pending" &&
    query.state.fetchStatus === "idle" &&
    enabled !== false &&
    typeof query.options.queryFn === "function"
  );
}

/** Resolves true once no query is fetching (also after fetches that start others), false past the deadline. */
async function settled(queryClient: QueryClient, deadline: number): Promise<boolean> {
  for (;;) {
    // A macrotask lets a fetch that starts when another ends (feeds, then the leaderboard) begin first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const left = deadline - Date.now();
    if (left <= 0) return false;
    if (queryClient.isFetching() === 0) return true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, left);
      const unsubscribe = queryClient.getQueryCache().subscribe(() => {
        if (queryClient.isFetching() === 0) done();
      });
      function done() {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
  }
}

function pageHead(pathname: string, queryClient: QueryClient): PageHead {
  const feedId = /^\/feed\/([^/]+)/.exec(pathname)?.[1];
  if (feedId && decodeURIComponent(feedId).toLowerCase() !== ALL_FEED_ID) {
    const feed = queryClient.getQueryData<Feed>(feedKeys.detail(decodeURIComponent(feedId)));
    if (feed) {
      return {
        title: `${feed.name} · ${SITE_NAME}`,
        description: feed.description?.trim() || `${feed.name}: a feed curated on ${SITE_NAME}.`,
        image: feed.image || null,
      };
    }
  }
  if (pathname.startsWith("/leaderboard")) {
    return {
      title: `Leaderboard · ${SITE_NAME}`,
      description: "The curators who found the most approved posts, overall and per feed.",
      image: null,
    };
  }
  return { title: `Explore · ${SITE_NAME}`, description: SITE_DESCRIPTION, image: null };
}
