import type { CurrentUser } from "@curate/core";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, api } from "#web/lib/api";
import { hasLocalAuthorization } from "./session";

export const authKeys = {
  all: ["auth"] as const,
  me: () => [...authKeys.all, "me"] as const,
};

/** The session's user, or null when the server says 401 (signed out or session revoked). */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  // Signing in stores the user and this browser's authorization together (flows.ts); without the authorization
  // the answer can only be a 401, which the browser would also report as a failed request.
  if (!hasLocalAuthorization()) return null;
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
