import type { QueryClient } from "@tanstack/react-query";

/** What every route's loader is handed: the app's query client, to prefetch through. */
export interface RouterContext {
  queryClient: QueryClient;
}
