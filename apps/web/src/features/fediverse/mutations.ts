import type { FediverseStatus } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { fediverseKeys } from "./api";

export function useSetFediverse(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      api<FediverseStatus>(`/feeds/${encodeURIComponent(feedId)}/fediverse`, {
        method: "PUT",
        body: { enabled },
      }),
    onSuccess: (status) => queryClient.setQueryData(fediverseKeys.status(feedId), status),
  });
}
