import type { FeedSecret } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { processingKeys } from "#web/features/processing/api";
import { api } from "#web/lib/api";
import { feedSecretKeys, feedSecretsPath } from "./api";

/**
 * Setting a secret also resumes the feed's paused channels on the server (a new value is usually the fix), so the
 * processing views are asked again too.
 */
export function useSetFeedSecret(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, value }: { name: string; value: string }) =>
      api<FeedSecret>(`${feedSecretsPath(feedId)}/${encodeURIComponent(name)}`, {
        method: "PUT",
        body: { value },
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: feedSecretKeys.list(feedId) }),
        queryClient.invalidateQueries({ queryKey: processingKeys.feed(feedId) }),
      ]),
  });
}

export function useDeleteFeedSecret(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api<{ name: string; deleted: true }>(`${feedSecretsPath(feedId)}/${encodeURIComponent(name)}`, {
        method: "DELETE",
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedSecretKeys.list(feedId) }),
  });
}
