import { createPrivateKey, createPublicKey, sign } from "node:crypto";
import type { LogKeys, LogSignature } from "@curate/core";
import { asc } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { moderationLogKeys } from "../db/schema.ts";
import { headMessage, keyId } from "./chain.ts";

/** The instance's log signing key, from the 32-byte Ed25519 seed LOG_SIGNING_KEY holds. */
export interface LogSigner {
  id: string;
  /** The raw public key, base64. */
  publicKey: string;
  sign(head: Omit<LogSignature, "signature" | "key">): LogSignature;
}

export function logSigner(seed: Buffer): LogSigner {
  // PKCS#8 DER of an Ed25519 key is a fixed prefix and the seed.
  const privateKey = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
    format: "der",
    type: "pkcs8",
  });
  const raw = createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(-32);
  const id = keyId(raw);
  return {
    id,
    publicKey: raw.toString("base64"),
    sign(head) {
      const unsigned = { ...head, key: id };
      return { ...unsigned, signature: sign(null, headMessage(unsigned), privateKey).toString("base64") };
    },
  };
}

/** Records the key as one that signs here (before its first signature), so it is published for good. */
export async function rememberSigningKey(db: Database, signer: LogSigner) {
  await db
    .insert(moderationLogKeys)
    .values({ id: signer.id, publicKey: signer.publicKey })
    .onConflictDoNothing();
}

/** The document at /.well-known/curate/log-key.json: every key that signed here, and the current one. */
export async function publishedKeys(db: Database, signer: LogSigner): Promise<LogKeys> {
  const rows = await db.select().from(moderationLogKeys).orderBy(asc(moderationLogKeys.firstUsedAt));
  const keys: LogKeys["keys"] = rows.map((row) => ({
    id: row.id,
    algorithm: "Ed25519",
    publicKey: row.publicKey,
    current: row.id === signer.id,
    firstUsedAt: row.firstUsedAt.toISOString(),
  }));
  if (!keys.some((key) => key.current)) {
    keys.push({
      id: signer.id,
      algorithm: "Ed25519",
      publicKey: signer.publicKey,
      current: true,
      firstUsedAt: null,
    });
  }
  return { format: "curate-log-keys", version: 1, keys };
}

/** Keys by id, as the verifier takes them. */
export function keyMap(keys: LogKeys["keys"]): Map<string, Buffer> {
  return new Map(keys.map((key) => [key.id, Buffer.from(key.publicKey, "base64")]));
}
