import { useSyncExternalStore } from "react";

/** The wallet the visitor connected, remembered so the header knows its state without loading wallet code. */
export interface WalletConnection {
  /** "development" or the id of a NEAR wallet offered by the wallet-connection library. */
  walletId: string;
  accountId: string;
}

export interface AuthSessionSnapshot {
  wallet: WalletConnection | null;
  /** The account the app was authorized for (the stored flag); re-checked against GET /api/users/me. */
  authorizedAccount: string | null;
  chooserOpen: boolean;
}

const WALLET_KEY = "curate:wallet";
const AUTHORIZED_KEY = "curate:authorized";

function readWallet(): WalletConnection | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(WALLET_KEY) ?? "null") as Partial<WalletConnection> | null;
    if (typeof parsed?.walletId === "string" && typeof parsed.accountId === "string") {
      return { walletId: parsed.walletId, accountId: parsed.accountId };
    }
  } catch {
    // A hand-edited or foreign value counts as no connection.
  }
  return null;
}

function readSnapshot(chooserOpen: boolean): AuthSessionSnapshot {
  const wallet = readWallet();
  const authorized = localStorage.getItem(AUTHORIZED_KEY);
  // The flag only counts for the account that is connected now.
  return {
    wallet,
    authorizedAccount: wallet && authorized === wallet.accountId ? authorized : null,
    chooserOpen,
  };
}

let snapshot: AuthSessionSnapshot | null = null;
const listeners = new Set<() => void>();

function current(): AuthSessionSnapshot {
  snapshot ??= readSnapshot(false);
  return snapshot;
}

function publish(next: AuthSessionSnapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab connecting, authorizing or disconnecting changes this tab too.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === WALLET_KEY || event.key === AUTHORIZED_KEY) {
      publish(readSnapshot(current().chooserOpen));
    }
  });
}

export const authSession = {
  get: current,
  subscribe,
  connectWallet(wallet: WalletConnection) {
    localStorage.setItem(WALLET_KEY, JSON.stringify(wallet));
    publish(readSnapshot(current().chooserOpen));
  },
  markAuthorized(accountId: string) {
    localStorage.setItem(AUTHORIZED_KEY, accountId);
    publish(readSnapshot(current().chooserOpen));
  },
  clearAuthorization() {
    localStorage.removeItem(AUTHORIZED_KEY);
    publish(readSnapshot(current().chooserOpen));
  },
  /** Forgets the wallet and the authorization together: no authorization outlives its wallet. */
  clearAll() {
    localStorage.removeItem(AUTHORIZED_KEY);
    localStorage.removeItem(WALLET_KEY);
    publish(readSnapshot(current().chooserOpen));
  },
  openChooser() {
    publish({ ...current(), chooserOpen: true });
  },
  closeChooser() {
    publish({ ...current(), chooserOpen: false });
  },
};

/**
 * Whether this browser holds an authorization for the connected wallet: without it there is no session worth asking
 * the server about (false on the server, which renders every page signed out).
 */
export function hasLocalAuthorization(): boolean {
  return typeof localStorage !== "undefined" && current().authorizedAccount !== null;
}

/** What a server-rendered page shows, and what hydration starts from: nobody is connected there. */
const SIGNED_OUT: AuthSessionSnapshot = { wallet: null, authorizedAccount: null, chooserOpen: false };

export function useAuthSession(): AuthSessionSnapshot {
  // The visitor's wallet lives in this browser's storage: the server renders a signed-out header, hydration
  // matches it, and the connected state follows in the next render.
  return useSyncExternalStore(subscribe, current, () => SIGNED_OUT);
}
