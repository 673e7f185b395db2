import type { CurrentUser } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { currentUserQueryOptions } from "./api";
import { authSession, useAuthSession } from "./session";

export type AuthStatus = "signed-out" | "connected" | "authorized";

export interface AuthState {
  status: AuthStatus;
  /** The connected wallet account, when there is one. */
  accountId: string | null;
  /** The session's user once GET /api/users/me confirmed it. */
  user: CurrentUser | null;
}

/**
 * The header's three states. The stored flag answers at once (no flash of "Authorize App" after a reload);
 * GET /api/users/me then confirms it, and a 401 or another account's session drops the flag again.
 */
export function useAuthState(): AuthState {
  const { wallet, authorizedAccount } = useAuthSession();
  const me = useQuery({ ...currentUserQueryOptions(), enabled: authorizedAccount !== null });
  const confirmedUser = me.data ?? null;
  const rejected = me.isSuccess && (me.data === null || me.data.nearAccountId !== authorizedAccount);

  useEffect(() => {
    if (rejected) authSession.clearAuthorization();
  }, [rejected]);

  if (!wallet) return { status: "signed-out", accountId: null, user: null };
  if (!authorizedAccount || rejected) return { status: "connected", accountId: wallet.accountId, user: null };
  return { status: "authorized", accountId: wallet.accountId, user: confirmedUser };
}
