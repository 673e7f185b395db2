import { type ApiToken, type ApiTokenUse, DEFAULT_PAGE_SIZE, type Paged } from "@curate/core";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** Tokens and their activity per NEAR account: another wallet signing in never sees these. */
export const apiTokenKeys = {
  all: ["api-tokens"] as const,
  account: (accountId: string) => [...apiTokenKeys.all, accountId] as const,
  list: (accountId: string, page: number) => [...apiTokenKeys.account(accountId), "list", page] as const,
  activity: (accountId: string, page: number) =>
    [...apiTokenKeys.account(accountId), "activity", page] as const,
};

/** Tokens a page of the Settings list shows. */
export const API_TOKENS_PAGE_SIZE = DEFAULT_PAGE_SIZE;
/** Changes a page of the tokens' activity shows. */
export const API_TOKEN_ACTIVITY_PAGE_SIZE = 10;

export const apiTokensQueryOptions = (accountId: string, page: number) =>
  queryOptions({
    queryKey: apiTokenKeys.list(accountId, page),
    queryFn: ({ signal }) =>
      api<Paged<ApiToken>>("/users/me/api-tokens", { query: { page, limit: API_TOKENS_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });

/** What the signed-in user's tokens changed, newest first: their private record of what scripts did. */
export const apiTokenActivityQueryOptions = (accountId: string, page: number) =>
  queryOptions({
    queryKey: apiTokenKeys.activity(accountId, page),
    queryFn: ({ signal }) =>
      api<Paged<ApiTokenUse>>("/users/me/api-tokens/activity", {
        query: { page, limit: API_TOKEN_ACTIVITY_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
