import type { OperationsOverview } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const operationsKeys = {
  all: ["operations"] as const,
  overview: () => [...operationsKeys.all, "overview"] as const,
};

/** How often the open page reads the overview again: operators watch it while something happens. */
export const OPERATIONS_REFRESH_MS = 15_000;

export const operationsOverviewQueryOptions = () =>
  queryOptions({
    queryKey: operationsKeys.overview(),
    queryFn: ({ signal }) => api<OperationsOverview>("/operations", { signal }),
    refetchInterval: OPERATIONS_REFRESH_MS,
    // A 401 or 403 does not change by asking again.
    retry: false,
  });
