import { ed25519 } from "@noble/curves/ed25519.js";

/**
 * A fixed development-wallet key for the moderation journey. The global setup names its implicit account in
 * SUPER_ADMIN_ACCOUNTS (super admins moderate every feed), and the journey stores the key where the development
 * wallet looks for it, so signing in yields a moderator without any feed-editing API.
 */
export const MODERATOR_SECRET_KEY_HEX = "4d".repeat(32);

/** An implicit NEAR account is the hex of the ed25519 public key. */
export const MODERATOR_ACCOUNT_ID = Buffer.from(
  ed25519.getPublicKey(Buffer.from(MODERATOR_SECRET_KEY_HEX, "hex")),
).toString("hex");

/** Where the development wallet keeps its key (features/auth/wallet/dev-wallet.ts). */
export const DEV_WALLET_KEY_STORAGE = "curate:dev-wallet-key";
