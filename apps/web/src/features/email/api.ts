import {
  type CaughtMail,
  type CaughtMailSummary,
  DEFAULT_PAGE_SIZE,
  type EmailFeedStatus,
  type EmailSubscriberSummary,
  type EmailSubscription,
  type Paged,
} from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api, apiUrl } from "#web/lib/api";

/** Email newsletters: a feed's email status (public), a reader's subscription by its link, an owner's summary. */
export const emailKeys = {
  all: ["email"] as const,
  // A root of its own: the same for every visitor, so server-rendered pages embed it (lib/ssr-state.ts); the
  // others are a reader's or an owner's own.
  status: (feedId: string) => ["email-status", feedId] as const,
  subscription: (token: string) => [...emailKeys.all, "subscription", token] as const,
  summary: (feedId: string) => [...emailKeys.all, "summary", feedId] as const,
  caughtPage: (page: number) => [...emailKeys.all, "caught", "page", page] as const,
  caught: (id: string) => [...emailKeys.all, "caught", id] as const,
};

export const emailStatusQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: emailKeys.status(feedId),
    queryFn: ({ signal }) => api<EmailFeedStatus>(`/email/feeds/${encodeURIComponent(feedId)}`, { signal }),
  });

export const subscriptionQueryOptions = (token: string) =>
  queryOptions({
    queryKey: emailKeys.subscription(token),
    queryFn: ({ signal }) => api<EmailSubscription>("/email/subscription", { query: { token }, signal }),
    // A link that no longer works (unsubscribed, feed deleted) says so at once.
    retry: false,
  });

export const subscriberSummaryQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: emailKeys.summary(feedId),
    queryFn: ({ signal }) =>
      api<EmailSubscriberSummary>(`/feeds/${encodeURIComponent(feedId)}/email`, { signal }),
  });

/** The owner's CSV of subscribers: a plain download with the session cookie. */
export const subscriberExportUrl = (feedId: string) =>
  apiUrl(`/feeds/${encodeURIComponent(feedId)}/email/export`);

/** The development catch-all's mails, a page at a time: new mails arrive while the page is open. */
export const CAUGHT_MAILS_PER_PAGE = DEFAULT_PAGE_SIZE;

export const caughtMailsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: emailKeys.caughtPage(page),
    queryFn: ({ signal }) =>
      api<Paged<CaughtMailSummary>>("/test/mails", {
        query: { page, limit: CAUGHT_MAILS_PER_PAGE },
        signal,
      }),
    refetchInterval: 3000,
    // A 404 means the catch-all is off on this server; asking again will not change that.
    retry: false,
  });

export const caughtMailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: emailKeys.caught(id),
    queryFn: ({ signal }) => api<CaughtMail>(`/test/mails/${encodeURIComponent(id)}`, { signal }),
    // A caught mail never changes.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
