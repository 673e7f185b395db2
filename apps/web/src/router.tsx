import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type RouterHistory } from "@tanstack/react-router";
import { NotFoundPage } from "#web/components/layout/NotFoundPage";
import { PagePending } from "#web/components/layout/PagePending";
import { RouteErrorPage } from "#web/components/layout/RouteErrorPage";
import { routeTree } from "./routeTree.gen";

export interface RouterContext {
  queryClient: QueryClient;
}

/** What the server's render changes: its own history at the requested address, no scroll restoration. */
export interface RouterOverrides {
  history?: RouterHistory;
  scrollRestoration?: boolean;
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
    scrollRestoration: true,
    ...overrides,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
