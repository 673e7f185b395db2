import type { AppConfig } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const configKeys = {
  all: ["config"] as const,
};

export const appConfigQueryOptions = () =>
  queryOptions({
    queryKey: configKeys.all,
    queryFn: ({ signal }) => api<AppConfig>("/config", { signal }),
    // Server settings only change with a deploy.
    staleTime: Number.POSITIVE_INFINITY,
  });
