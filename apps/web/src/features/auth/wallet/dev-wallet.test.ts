import { createHash, createPublicKey, verify } from "node:crypto";
import {
  base58Decode,
  base64Decode,
  decodeSignedMessageToken,
  encodeSignedMessageToken,
  nep413SigningBytes,
} from "@curate/core";
import { ed25519 } from "@noble/curves/ed25519.js";
import { describe, expect, it } from "vitest";
import { implicitAccountOf, signNep413 } from "./dev-wallet";

// DER prefix of an ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it.
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** Verifies with Node's own ed25519 (OpenSSL), independent of the library that signed. */
function nodeVerifies(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
    format: "der",
    type: "spki",
  });
  return verify(null, message, key, signature);
}

function sha256(bytes: Uint8Array) {
  return new Uint8Array(createHash("sha256").update(bytes).digest());
}

const secretKey = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const request = {
  message: "Authorize Curate",
  nonce: Uint8Array.from({ length: 32 }, (_, i) => 255 - i),
  recipient: "curate.example",
};

describe("development wallet", () => {
  it("signs for the implicit account of its key", () => {
    const publicKey = ed25519.getPublicKey(secretKey);
    const signed = signNep413(secretKey, request);
    expect(signed.accountId).toBe(implicitAccountOf(publicKey));
    expect(signed.accountId).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.publicKey).toMatch(/^ed25519:[1-9A-HJ-NP-Za-km-z]+$/);
    expect(base58Decode(signed.publicKey.slice("ed25519:".length))).toEqual(publicKey);
  });

  it("produces a NEP-413 signature over sha256 of the tagged payload that OpenSSL accepts", () => {
    const signed = signNep413(secretKey, request);
    const publicKey = base58Decode(signed.publicKey.slice("ed25519:".length));
    const signature = base64Decode(signed.signature);
    expect(signature).toHaveLength(64);

    const digest = sha256(nep413SigningBytes(request));
    expect(nodeVerifies(publicKey, digest, signature)).toBe(true);
    // Signing any other nonce or recipient is a different message.
    const otherDigest = sha256(nep413SigningBytes({ ...request, recipient: "evil.example" }));
    expect(nodeVerifies(publicKey, otherDigest, signature)).toBe(false);
  });

  it("round-trips through the signed-message token the server parses", () => {
    const signed = signNep413(secretKey, request);
    const token = encodeSignedMessageToken({
      ...request,
      ...signed,
      callbackUrl: null,
      state: null,
    });
    expect(decodeSignedMessageToken(token)).toEqual({
      accountId: signed.accountId,
      publicKey: signed.publicKey,
      signature: signed.signature,
      message: request.message,
      nonce: request.nonce,
      recipient: request.recipient,
      callbackUrl: null,
      state: null,
    });
  });
});
