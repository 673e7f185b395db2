import { base64Decode, encodeSignedMessageToken, type LoginChallenge } from "@curate/core";
import type { QueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast";
import { loadWalletAdapter } from "#web/features/auth/wallet/load";
import type { WalletAdapter } from "#web/features/auth/wallet/types";
import { authKeys } from "./api";
import { initiateLogin, logout, verifyLogin } from "./mutations";
import { authSession, type WalletConnection } from "./session";

// Connect and disconnect confirmations get out of the way quickly; every other toast keeps the 3 s default.
const QUICK_TOAST_MS = 1000;

/** Sign-in and permissions change what every query may answer, so everything but the user itself refetches. */
function refreshUserData(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
}

/** Forgets the authorization and the wallet after the wallet or the visitor ended the session. */
async function endSession(queryClient: QueryClient) {
  // Logout first: clearing its cookie must not race a sign-in that follows right after.
  await logout().catch(() => undefined);
  authSession.clearAll();
  queryClient.setQueryData(authKeys.me(), null);
  refreshUserData(queryClient);
}

const watched = new Map<string, () => void>();

/** Listens for the wallet's own sign-out (another tab, the wallet's UI) and ends the session with it. */
export async function watchWallet(
  wallet: WalletConnection,
  queryClient: QueryClient,
  adapter?: WalletAdapter,
) {
  if (watched.has(wallet.walletId)) return;
  const source = adapter ?? (await loadWalletAdapter(wallet.walletId));
  if (watched.has(wallet.walletId)) return;
  const stop = source.onDisconnect(() => {
    stop();
    watched.delete(wallet.walletId);
    // An explicit Disconnect has already forgotten the wallet; only a sign-out from elsewhere is handled here.
    if (authSession.get().wallet?.walletId !== wallet.walletId) return;
    void endSession(queryClient).then(() =>
      toast.success("Wallet Disconnected", {
        description: "You have been signed out successfully.",
        duration: QUICK_TOAST_MS,
      }),
    );
  });
  watched.set(wallet.walletId, stop);
}

/** Signs in with the chosen wallet; true when a wallet account is connected. */
export async function connectWallet(walletId: string, queryClient: QueryClient): Promise<boolean> {
  try {
    const adapter = await loadWalletAdapter(walletId);
    const accountId = await adapter.connect();
    const wallet = { walletId, accountId };
    authSession.connectWallet(wallet);
    void watchWallet(wallet, queryClient, adapter);
    toast.success("Wallet Connected", {
      description: `Connected as: ${accountId}`,
      duration: QUICK_TOAST_MS,
    });
    return true;
  } catch {
    toast.error("Sign-in failed");
    return false;
  }
}

/** The authorization flow: a nonce from the server, a NEP-413 signature from the wallet, a verified session. */
export async function authorize(queryClient: QueryClient): Promise<void> {
  const { wallet } = authSession.get();
  if (!wallet) {
    toast.error("Not Signed In", { description: "Please sign in before authorizing." });
    return;
  }

  let challenge: LoginChallenge;
  try {
    challenge = await initiateLogin(wallet.accountId);
  } catch {
    toast.error("Connection Error", {
      description: "Unable to connect to authentication server. Please try again.",
    });
    return;
  }

  let adapter: WalletAdapter;
  try {
    adapter = await loadWalletAdapter(wallet.walletId);
    if ((await adapter.connectedAccount()) !== wallet.accountId) throw new Error("Wallet session lost");
  } catch {
    // The wallet no longer holds this account (its session ended or was cleared), so the remembered wallet is
    // stale: forget it, and the header offers Login again instead of an Authorize App that cannot succeed.
    authSession.clearAll();
    toast.error("Authorization not ready", { description: "Please try signing back in." });
    return;
  }

  try {
    const nonce = base64Decode(challenge.nonce);
    const request = { message: challenge.message, nonce, recipient: challenge.recipient };
    const signed = await adapter.signMessage(request);
    const token = encodeSignedMessageToken({
      ...request,
      accountId: wallet.accountId,
      publicKey: signed.publicKey,
      signature: signed.signature,
      callbackUrl: null,
      state: null,
    });
    const user = await verifyLogin(wallet.accountId, token);
    // The user goes into the cache before the flag, so the re-check never sees a stale "signed out".
    queryClient.setQueryData(authKeys.me(), user);
    authSession.markAuthorized(user.nearAccountId);
    refreshUserData(queryClient);
    toast.success("Authorization Successful!");
  } catch {
    toast.error("Authorization failed");
  }
}

/** Disconnect: logout, clear the stored flag and sign the wallet out. */
export async function disconnect(queryClient: QueryClient): Promise<void> {
  const { wallet } = authSession.get();
  await endSession(queryClient);
  if (wallet) {
    await loadWalletAdapter(wallet.walletId)
      .then((adapter) => adapter.disconnect())
      .catch(() => undefined);
  }
  toast.success("Wallet Disconnected", {
    description: "You have been signed out successfully.",
    duration: QUICK_TOAST_MS,
  });
}
