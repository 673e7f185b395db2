/** What a wallet is asked to sign for sign-in (NEP-413). */
export interface SignMessageRequest {
  message: string;
  nonce: Uint8Array;
  recipient: string;
}

/** A NEP-413 signature as wallets return it. */
export interface SignedMessage {
  accountId: string;
  /** "ed25519:<base58>" */
  publicKey: string;
  /** base64 of the 64-byte ed25519 signature */
  signature: string;
}

/** A wallet the chooser can offer. */
export interface WalletOption {
  id: string;
  name: string;
  description?: string;
  icon?: string;
}

/**
 * The app's only view of a wallet. The wallet-connection library (and the development wallet's crypto) stay
 * behind it, so they load on demand and can be swapped without touching the rest of the app.
 */
export interface WalletAdapter {
  /** Signs the visitor in with the wallet and returns the account id. */
  connect(): Promise<string>;
  /** The account the wallet still has signed in, or null when it has none (e.g. signed out elsewhere). */
  connectedAccount(): Promise<string | null>;
  signMessage(request: SignMessageRequest): Promise<SignedMessage>;
  disconnect(): Promise<void>;
  /** Called when the wallet itself reports a sign-out; returns the unsubscribe function. */
  onDisconnect(listener: () => void): () => void;
}

export const DEV_WALLET_ID = "development";
