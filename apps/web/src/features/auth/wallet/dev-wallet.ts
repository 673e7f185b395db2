import { base58Encode, base64Encode, hexEncode, nep413SigningBytes } from "@curate/core";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import type { SignedMessage, SignMessageRequest, WalletAdapter } from "./types";

const SECRET_KEY = "curate:dev-wallet-key";

/** An implicit NEAR account is the hex of its ed25519 public key, so the key alone proves ownership. */
export function implicitAccountOf(publicKey: Uint8Array): string {
  return hexEncode(publicKey);
}

/** Signs a NEP-413 request the way NEAR wallets do: ed25519 over sha256 of the tagged borsh payload. */
export function signNep413(secretKey: Uint8Array, request: SignMessageRequest): SignedMessage {
  const publicKey = ed25519.getPublicKey(secretKey);
  const signature = ed25519.sign(sha256(nep413SigningBytes(request)), secretKey);
  return {
    accountId: implicitAccountOf(publicKey),
    publicKey: `ed25519:${base58Encode(publicKey)}`,
    signature: base64Encode(signature),
  };
}

/** The key survives disconnecting, so the development account stays the same across sign-ins, like a real wallet. */
function loadOrCreateSecretKey(): Uint8Array {
  const stored = localStorage.getItem(SECRET_KEY);
  if (stored && /^[0-9a-f]{64}$/.test(stored)) return hexToBytes(stored);
  const secretKey = ed25519.utils.randomSecretKey();
  localStorage.setItem(SECRET_KEY, hexEncode(secretKey));
  return secretKey;
}

const CONNECTED_KEY = "curate:dev-wallet-connected";

/** A local wallet for development and test servers: sign-in without a browser extension or the internet. */
export const developmentWallet: WalletAdapter = {
  async connect() {
    const account = implicitAccountOf(ed25519.getPublicKey(loadOrCreateSecretKey()));
    localStorage.setItem(CONNECTED_KEY, account);
    return account;
  },
  async connectedAccount() {
    const stored = localStorage.getItem(SECRET_KEY);
    const connected = localStorage.getItem(CONNECTED_KEY);
    if (!stored || !connected) return null;
    return implicitAccountOf(ed25519.getPublicKey(hexToBytes(stored))) === connected ? connected : null;
  },
  async signMessage(request) {
    const stored = localStorage.getItem(SECRET_KEY);
    if (!stored) throw new Error("The development wallet has no key");
    return signNep413(hexToBytes(stored), request);
  },
  async disconnect() {
    localStorage.removeItem(CONNECTED_KEY);
  },
  onDisconnect(listener) {
    const onStorage = (event: StorageEvent) => {
      if (event.key === CONNECTED_KEY && event.newValue === null) listener();
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  },
};
