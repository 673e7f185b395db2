import {
  base58Decode,
  base64Decode,
  decodeSignedMessageToken,
  hexEncode,
  nep413SigningBytes,
  type SignedMessageToken,
} from "@curate/core";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { AppError } from "../errors.ts";

const IMPLICIT_ACCOUNT = /^[0-9a-f]{64}$/;

export interface VerifiedSignature {
  token: SignedMessageToken;
  publicKey: Uint8Array;
}

const unauthorized = (reason: string) => new AppError("UNAUTHENTICATED", `Sign-in failed: ${reason}`);

export function parseToken(token: string): SignedMessageToken {
  try {
    return decodeSignedMessageToken(token);
  } catch {
    throw unauthorized("the signed token is malformed.");
  }
}

export function parseEd25519PublicKey(publicKey: string): Uint8Array {
  const [curve, encoded] = publicKey.split(":");
  if (curve !== "ed25519" || !encoded) throw unauthorized("only ed25519 keys are supported.");
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(encoded);
  } catch {
    throw unauthorized("the public key is malformed.");
  }
  if (bytes.length !== 32) throw unauthorized("the public key is malformed.");
  return bytes;
}

/** Checks the NEP-413 signature: ed25519 over sha256(tag ‖ borsh payload). */
export function verifyNep413Signature(token: SignedMessageToken): Uint8Array {
  const publicKey = parseEd25519PublicKey(token.publicKey);
  let signature: Uint8Array;
  try {
    signature = base64Decode(token.signature);
  } catch {
    throw unauthorized("the signature is malformed.");
  }
  if (signature.length !== 64) throw unauthorized("the signature is malformed.");
  const digest = sha256(nep413SigningBytes(token));
  let valid = false;
  try {
    valid = ed25519.verify(signature, digest, publicKey);
  } catch {
    valid = false;
  }
  if (!valid) throw unauthorized("the signature does not match.");
  return publicKey;
}

export function isImplicitAccount(accountId: string) {
  return IMPLICIT_ACCOUNT.test(accountId);
}

/** An implicit account is its own key: the account id is the hex of the public key. */
export function implicitAccountOwnsKey(accountId: string, publicKey: Uint8Array) {
  return hexEncode(publicKey) === accountId;
}
