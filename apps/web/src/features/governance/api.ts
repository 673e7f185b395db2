import type { ApproverOffer, TrustPage } from "@curate/core";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const trustKeys = {
  all: ["trust"] as const,
  feed: (feedId: string, page: number) => [...trustKeys.all, "feed", feedId, page] as const,
  curator: (curator: string, page: number) => [...trustKeys.all, "curator", curator, page] as const,
};

/** Curators per page of a feed's trusted list. */
export const TRUST_PAGE_SIZE = 10;

/** A feed's curators under its trust policy, trusted first (nothing when the feed has trust off). */
export const feedTrustQueryOptions = (feedId: string, page = 0) =>
  queryOptions({
    queryKey: trustKeys.feed(feedId, page),
    queryFn: ({ signal }) =>
      api<TrustPage>("/trust", { query: { feedId, page, limit: TRUST_PAGE_SIZE }, signal }),
  });

/** One curator's standing in every feed with trust on (their profile). */
export const curatorTrustQueryOptions = (curator: string, page = 0) =>
  queryOptions({
    queryKey: trustKeys.curator(curator, page),
    queryFn: ({ signal }) =>
      api<TrustPage>("/trust", { query: { curator, page, limit: TRUST_PAGE_SIZE }, signal }),
  });

export const approverOfferKeys = {
  feed: (feedId: string) => ["approver-offers", feedId] as const,
};

/** Approver rights offered in a feed, waiting ones first (its owners only). */
export const approverOffersQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: approverOfferKeys.feed(feedId),
    queryFn: ({ signal }) =>
      api<{ items: ApproverOffer[] }>(`/feeds/${encodeURIComponent(feedId)}/approver-offers`, { signal }),
  });

/** An owner's answer to an offer; a confirmation saves the config, so the feed's caches are refreshed too. */
export function useAnswerApproverOffer(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ personKey, answer }: { personKey: string; answer: "confirm" | "decline" }) =>
      api<ApproverOffer>(
        `/feeds/${encodeURIComponent(feedId)}/approver-offers/${encodeURIComponent(personKey)}/${answer}`,
        { method: "POST" },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: approverOfferKeys.feed(feedId) }),
  });
}
