import type { CurrentUser, LoginChallenge } from "@curate/core";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, api } from "#web/lib/api";

export const authKeys = {
  all: ["auth"] as const,
  me: () => [...authKeys.all, "me"] as const,
};

/** The session's user, or null when the server says 401 (signed out or session revoked). */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await api<CurrentUser>("/users/me", { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    staleTime: 60_000,
  });

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}

export function initiateLogin(accountId: string): Promise<LoginChallenge> {
  return api<LoginChallenge>("/auth/initiate-login", { method: "POST", body: { accountId } });
}

/** Sends the wallet's signed-message token; on success the server sets the session cookie. */
export function verifyLogin(accountId: string, token: string): Promise<CurrentUser> {
  return api<CurrentUser>("/auth/verify-login", { method: "POST", body: { token, accountId } });
}

export function logout(): Promise<unknown> {
  return api("/auth/logout", { method: "POST" });
}
