import type { EmailMode, EmailSubscribeRequest, EmailSubscription, EmailUnsubscribed } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { emailKeys } from "./api";

export function useSubscribeByEmail() {
  return useMutation({
    mutationFn: (request: EmailSubscribeRequest) =>
      api<{ message: string }>("/email/subscribe", { method: "POST", body: request }),
  });
}

export function useConfirmSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api<EmailSubscription>("/email/confirm", { method: "POST", body: { token } }),
    onSuccess: (subscription) =>
      queryClient.setQueryData(emailKeys.subscription(subscription.manageToken), subscription),
  });
}

export function useChangeSubscriptionMode(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mode: EmailMode) =>
      api<EmailSubscription>("/email/subscription", { method: "PUT", body: { token, mode } }),
    onSuccess: (subscription) => queryClient.setQueryData(emailKeys.subscription(token), subscription),
  });
}

export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<EmailUnsubscribed | null>("/email/unsubscribe", { method: "POST", body: { token } }),
    onSuccess: () => queryClient.removeQueries({ queryKey: emailKeys.subscription(token) }),
  });
}

export function useSendTestMail(feedId: string) {
  return useMutation({
    mutationFn: (email: string) =>
      api<{ message: string }>(`/feeds/${encodeURIComponent(feedId)}/email/test`, {
        method: "POST",
        body: { email },
      }),
  });
}
