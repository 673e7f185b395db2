import {
  type CrosspostConnectedAccount,
  crosspostConnectedAccountSchema,
  type LinkedAccount,
} from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** One account the NEAR account connected on Crosspost (its `data.accounts` entries). */
export type ConnectedAccount = CrosspostConnectedAccount;

/** Crosspost refused the NEAR account it knows: it has to authenticate (connect) again. */
export class CrosspostAuthError extends Error {
  constructor() {
    super("Authentication with Crosspost failed. Please try reconnecting.");
    this.name = "CrosspostAuthError";
  }
}

/** Crosspost did not answer, or failed: nothing is known about the connections until it does. */
export class CrosspostUnavailableError extends Error {
  /** The service's host, to say what is down. */
  readonly host: string;
  constructor(crosspostUrl: string, detail: string) {
    const host = new URL(crosspostUrl).host;
    super(`Crosspost (${host}) ${detail}.`);
    this.name = "CrosspostUnavailableError";
    this.host = host;
  }
}

export const connectionKeys = {
  all: ["connected-accounts"] as const,
  /** Per NEAR account: switching wallets never shows another account's connections. */
  accounts: (accountId: string) => [...connectionKeys.all, accountId] as const,
};

/**
 * The accounts Crosspost lists for the NEAR account. A NEAR account that never authorized Crosspost (a 401: "NEAR
 * account is not authorized") has connected nothing yet, which is no error; a refusal of an account it knows (403)
 * is one, and so is a service that cannot be reached or fails.
 */
export async function fetchConnectedAccounts(
  crosspostUrl: string,
  accountId: string,
  signal?: AbortSignal,
): Promise<ConnectedAccount[]> {
  let response: Response;
  try {
    response = await fetch(new URL("/api/auth/accounts", crosspostUrl), {
      headers: { accept: "application/json", "X-Near-Account": accountId },
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CrosspostUnavailableError(crosspostUrl, "cannot be reached");
  }
  if (response.status === 401) return [];
  if (response.status === 403) throw new CrosspostAuthError();
  const body = (await response.json().catch(() => null)) as {
    data?: { accounts?: unknown[] };
  } | null;
  if (!response.ok || !Array.isArray(body?.data?.accounts)) {
    throw new CrosspostUnavailableError(
      crosspostUrl,
      response.ok
        ? "answered in a way this app does not understand"
        : `is failing (it answered ${response.status})`,
    );
  }
  // Each entry is read as the server reads it: one that does not fit the shape is left out, never shown half.
  return body.data.accounts.flatMap((account) => {
    const parsed = crosspostConnectedAccountSchema.safeParse(account);
    return parsed.success ? [parsed.data] : [];
  });
}

export const connectedAccountsQueryOptions = (crosspostUrl: string, accountId: string) =>
  queryOptions({
    queryKey: connectionKeys.accounts(accountId),
    queryFn: ({ signal }) => fetchConnectedAccounts(crosspostUrl, accountId, signal),
    retry: (count, error) => !(error instanceof CrosspostAuthError) && count < 2,
  });

export const linkedHandleKeys = {
  all: ["linked-handles"] as const,
  /** Per NEAR account, like the connections: another wallet's handles never show. */
  list: (accountId: string) => [...linkedHandleKeys.all, accountId] as const,
};

/** The handles this deployment recognises as the signed-in user's, on every network (the moderator rule reads them). */
export const linkedHandlesQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: linkedHandleKeys.list(accountId),
    queryFn: ({ signal }) => api<LinkedAccount[]>("/users/me/linked-accounts", { signal }),
  });
