import { encodeSignedMessageToken } from "@curate/core";
import type { QueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast";
import { authSession } from "#web/features/auth/session";
import { loadWalletAdapter } from "#web/features/auth/wallet/load";
import { api } from "#web/lib/api";
import { CrosspostAuthError, CrosspostUnavailableError, connectionKeys } from "./api";

/** Crosspost's NEP-413 recipient. */
export const CROSSPOST_RECIPIENT = "crosspost.near";

export const crosspostAuthMessage = (accountId: string) =>
  `Authenticating request for NEAR account: ${accountId}`;

/** The service checks the nonce is recent: it starts with the time in milliseconds as 16 digits. */
function freshNonce(now = Date.now()): Uint8Array {
  const nonce = new Uint8Array(32);
  nonce.set(new TextEncoder().encode(String(now).padStart(16, "0")), 0);
  nonce.set(crypto.getRandomValues(new Uint8Array(16)), 16);
  return nonce;
}

class ConnectError extends Error {}

async function crosspostPost(crosspostUrl: string, path: string, token: string, body: unknown) {
  let response: Response;
  try {
    response = await fetch(new URL(path, crosspostUrl), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  } catch {
    throw new CrosspostUnavailableError(crosspostUrl, "cannot be reached; try again in a moment");
  }
  // The signed request was refused: the spec's words for an authentication error, not the service's.
  if (response.status === 401 || response.status === 403) throw new CrosspostAuthError();
  const payload = (await response.json().catch(() => null)) as {
    data?: { url?: unknown };
    errors?: Array<{ message?: string }>;
  } | null;
  if (!response.ok)
    throw new ConnectError(payload?.errors?.[0]?.message ?? `Crosspost answered ${response.status}`);
  return payload;
}

/** Resolves with the login's outcome when the popup reports it, or "cancelled" when it closes without a word. */
function popupOutcome(popup: Window): Promise<{ code?: string; message?: string } | "cancelled"> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as {
        type?: string;
        data?: { status?: { code?: string; message?: string } };
      } | null;
      if (event.source !== popup || data?.type !== "AUTH_CALLBACK") return;
      finish(data.data?.status ?? {});
    };
    const watch = window.setInterval(() => {
      if (popup.closed) finish("cancelled");
    }, 300);
    function finish(outcome: { code?: string; message?: string } | "cancelled") {
      window.clearInterval(watch);
      window.removeEventListener("message", onMessage);
      resolve(outcome);
    }
    window.addEventListener("message", onMessage);
  });
}

/**
 * Connects a social account through Crosspost: the wallet signs Crosspost's authentication message, Crosspost
 * authorizes the NEAR account, the platform's login runs in a popup, and then the server links the handle on
 * Crosspost's word (never the browser's).
 */
export async function connectAccount(platform: string, crosspostUrl: string, queryClient: QueryClient) {
  const { wallet } = authSession.get();
  if (!wallet?.accountId) {
    toast.error("Wallet not connected or account ID unavailable.");
    return;
  }
  const fail = (description: string) => toast.error("Connection Failed", { description });
  try {
    toast.message("Authenticating...", { description: "Please sign the message in your wallet" });
    const adapter = await loadWalletAdapter(wallet.walletId);
    const request = {
      message: crosspostAuthMessage(wallet.accountId),
      nonce: freshNonce(),
      recipient: CROSSPOST_RECIPIENT,
    };
    const signed = await adapter.signMessage(request);
    const token = encodeSignedMessageToken({
      ...request,
      accountId: wallet.accountId,
      publicKey: signed.publicKey,
      signature: signed.signature,
      callbackUrl: null,
      state: null,
    });
    await crosspostPost(crosspostUrl, "/api/auth/authorize/near", token, {});
    toast.message(`Connecting to ${platform}...`);
    const login = await crosspostPost(crosspostUrl, `/api/auth/${platform.toLowerCase()}/login`, token, {
      redirect: false,
    });
    const url = login?.data?.url;
    if (typeof url !== "string")
      throw new ConnectError("Unexpected response from server during platform login.");
    const popup = window.open(url, "crosspost-login", "popup,width=600,height=700");
    if (!popup) {
      fail("Please allow popups to connect your account");
      return;
    }
    const outcome = await popupOutcome(popup);
    if (outcome === "cancelled") {
      fail("Connection cancelled");
      return;
    }
    if (outcome.code !== "AUTH_SUCCESS")
      throw new ConnectError(outcome.message ?? `Failed to connect ${platform} account`);
    await api("/users/me/linked-accounts/sync", { method: "POST" });
    await queryClient.invalidateQueries({ queryKey: connectionKeys.accounts(wallet.accountId) });
    toast.success(`${platform} Account Connected!`, {
      description: "Your account is now linked and ready to use.",
    });
  } catch (error) {
    fail(error instanceof Error && error.message ? error.message : `Failed to connect ${platform} account`);
  }
}
