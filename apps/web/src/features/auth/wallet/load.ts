import { DEV_WALLET_ID, type WalletAdapter, type WalletOption } from "./types";

/** Loads the code of one wallet on demand; nothing of it is in the first page load. */
export async function loadWalletAdapter(walletId: string): Promise<WalletAdapter> {
  if (walletId === DEV_WALLET_ID) return (await import("./dev-wallet")).developmentWallet;
  return (await import("./near-wallets")).nearWallet(walletId);
}

export async function listNearWallets(): Promise<WalletOption[]> {
  return (await import("./near-wallets")).listNearWallets();
}
