import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type RouterHistory } from "@tanstack/react-router";
import { NotFoundPage } from "#web/components/layout/NotFoundPage";
import { PagePending } from "#web/components/layout/PagePending";
import { RouteErrorPage } from "#web/components/layout/RouteErrorPage";
import { routeTree } from "./routeTree.gen";

/** What the server's render changes: its own history at the requested address, no scroll restoration. */
export interface RouterOverrides {
  history?: RouterHistory;
  scrollRestoration?: boolean;
}

/**
 * Scroll restoration (back and forward return to where the visitor was, a new page starts at the top), except on the
 * document's first render when the visitor has already scrolled: a server-rendered page can be read and scrolled
 * before it hydrates, and moving it back to the top then loses their place and lands their next tap on whatever
 * slid under it.
 */
function restoreScrollUnlessVisitorMoved() {
  let firstRender = true;
  return () => {
    if (!firstRender) return true;
    firstRender = false;
    return window.scrollX === 0 && window.scrollY === 0;
  };
}

export function createAppRouter(queryClient: QueryClient, overrides: RouterOverrides = {}) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    // TanStack Query owns freshness; the router should always ask it rather than cache loader results itself.
    defaultPreloadStaleTime: 0,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: RouteErrorPage,
    // A page whose code is still on its way shows the layout and a sign of work rather than nothing.
    defaultPendingComponent: PagePending,
    defaultPendingMs: 300,
    scrollRestoration: restoreScrollUnlessVisitorMoved(),
    ...overrides,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
