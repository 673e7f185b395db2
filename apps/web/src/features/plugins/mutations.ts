import type { RegistryPlugin } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { pluginKeys, pluginPath } from "./api";

export interface PluginRegistration {
  name: string;
  repoUrl: string;
  type: string;
  entryPoint: string;
  schemaDefinition: object | null;
}

export interface PluginChanges {
  entryPoint?: string;
  schemaDefinition?: object | null;
}

function useInvalidatePlugins() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: pluginKeys.all });
}

export function useCreatePlugin() {
  const invalidate = useInvalidatePlugins();
  return useMutation({
    mutationFn: (registration: PluginRegistration) =>
      api<RegistryPlugin>("/plugins", { method: "POST", body: registration }),
    onSuccess: invalidate,
  });
}

export function useUpdatePlugin(pluginId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidatePlugins();
  return useMutation({
    mutationFn: (changes: PluginChanges) =>
      api<RegistryPlugin>(pluginPath(pluginId), { method: "PATCH", body: changes }),
    onSuccess: (plugin) => {
      queryClient.setQueryData(pluginKeys.detail(pluginId), plugin);
      return invalidate();
    },
  });
}

export function useDeletePlugin(pluginId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidatePlugins();
  return useMutation({
    mutationFn: () => api<{ id: string; deleted: true }>(pluginPath(pluginId), { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: pluginKeys.detail(pluginId) });
      return invalidate();
    },
  });
}

export function useDismissPluginNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noticeId: string) =>
      api<{ id: string; dismissed: true }>(`/plugins/notices/${encodeURIComponent(noticeId)}/dismiss`, {
        method: "POST",
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pluginKeys.notices() }),
  });
}
