import type { ApiToken, ApiTokenCreated, ApiTokenCreateRequest } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { apiTokenKeys } from "./api";

export function useCreateApiToken(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiTokenCreateRequest) =>
      api<ApiTokenCreated>("/users/me/api-tokens", { method: "POST", body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.account(accountId) }),
  });
}

export function useRevokeApiToken(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<ApiToken>(`/users/me/api-tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.account(accountId) }),
  });
}
