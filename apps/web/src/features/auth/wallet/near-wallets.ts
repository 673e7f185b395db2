import { NearConnector } from "@hot-labs/near-connect";
import type { WalletAdapter, WalletOption } from "./types";

let connector: NearConnector | null = null;

/**
 * The page's CSP nonce (the server puts it on our script tags): wallet executors run as inline scripts in sandboxed
 * frames that inherit the page's policy, so they need it. A script reads its `nonce` property, never the attribute.
 */
function pageNonce(): string | undefined {
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}

function getConnector(): NearConnector {
  connector ??= new NearConnector({
    network: "mainnet",
    cspNonce: pageNonce(),
    // Sign-in is a NEP-413 signed message, so only wallets that can sign one are offered.
    features: { signMessage: true },
    // Connecting is always the visitor's explicit choice in our own chooser.
    autoConnect: false,
  });
  return connector;
}

/** The NEAR wallets the library's manifest lists; empty when it could not be fetched. */
export async function listNearWallets(): Promise<WalletOption[]> {
  let current = getConnector();
  await current.whenManifestLoaded;
  // The manifest is fetched once per connector: after a failed fetch, a fresh connector tries again.
  if (current.availableWallets.length === 0) {
    connector = null;
    current = getConnector();
    await current.whenManifestLoaded;
  }
  return current.availableWallets.map(({ manifest }) => ({
    id: manifest.id,
    name: manifest.name,
    description: manifest.description,
    icon: manifest.icon,
  }));
}

async function firstAccount(): Promise<string | null> {
  try {
    const { accounts } = await getConnector().getConnectedWallet();
    return accounts[0]?.accountId ?? null;
  } catch {
    return null;
  }
}

/** A NEAR mainnet wallet reached through the wallet-connection library (@hot-labs/near-connect). */
export function nearWallet(walletId: string): WalletAdapter {
  return {
    async connect() {
      const wallet = await getConnector().connect({ walletId });
      const [account] = await wallet.getAccounts({ network: "mainnet" });
      if (!account) throw new Error("The wallet returned no account");
      return account.accountId;
    },
    connectedAccount: firstAccount,
    async signMessage({ message, nonce, recipient }) {
      const { wallet, accounts } = await getConnector().getConnectedWallet();
      const signed = await wallet.signMessage({ message, nonce, recipient, network: "mainnet" });
      return {
        accountId: signed.accountId || (accounts[0]?.accountId ?? ""),
        publicKey: signed.publicKey,
        signature: signed.signature,
      };
    },
    async disconnect() {
      try {
        await getConnector().disconnect();
      } catch {
        // The wallet already forgot the session; there is nothing left to sign out of.
      }
    },
    onDisconnect(listener) {
      const current = getConnector();
      current.on("wallet:signOut", listener);
      return () => current.off("wallet:signOut", listener);
    },
  };
}
