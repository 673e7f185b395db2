import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Paged,
  type PluginNotice,
  type PluginType,
  type RegistryPlugin,
} from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const PLUGINS_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export interface PluginFilters {
  type?: PluginType;
  name?: string;
  page: number;
}

export const pluginKeys = {
  all: ["plugins"] as const,
  list: (filters: PluginFilters) => [...pluginKeys.all, "list", filters] as const,
  detail: (pluginId: string) => [...pluginKeys.all, "detail", pluginId] as const,
  notices: () => [...pluginKeys.all, "notices"] as const,
};

export const pluginPath = (pluginId: string) => `/plugins/${encodeURIComponent(pluginId)}`;

export const pluginsQueryOptions = (filters: PluginFilters) =>
  queryOptions({
    queryKey: pluginKeys.list(filters),
    queryFn: ({ signal }) =>
      api<Paged<RegistryPlugin>>("/plugins", {
        signal,
        query: { type: filters.type, name: filters.name, page: filters.page, limit: PLUGINS_PAGE_SIZE },
      }),
  });

export const pluginQueryOptions = (pluginId: string) =>
  queryOptions({
    queryKey: pluginKeys.detail(pluginId),
    queryFn: ({ signal }) => api<RegistryPlugin>(pluginPath(pluginId), { signal }),
  });

/** Every plugin name of one type a step may use (built-ins and registered), for the feed editor's suggestions. */
export const pluginNamesQueryOptions = (type: PluginType) =>
  queryOptions({
    queryKey: [...pluginKeys.all, "names", type] as const,
    queryFn: async ({ signal }) =>
      (
        await api<Paged<RegistryPlugin>>("/plugins", { signal, query: { type, limit: MAX_PAGE_SIZE } })
      ).items.map((plugin) => plugin.name),
    staleTime: 60_000,
  });

/** The signed-in user's notices (plugins of theirs renamed, feeds of theirs rewritten); the newest page only. */
export const pluginNoticesQueryOptions = () =>
  queryOptions({
    queryKey: pluginKeys.notices(),
    queryFn: ({ signal }) => api<Paged<PluginNotice>>("/plugins/notices", { signal }),
  });
