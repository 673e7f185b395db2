import type { CurrentUser, LoginChallenge } from "@curate/core";
import { api } from "#web/lib/api";

// The sign-in calls. flows.ts (loaded on demand) drives them and puts the user into the cache under
// authKeys.me(); nothing here is part of the first load.

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
