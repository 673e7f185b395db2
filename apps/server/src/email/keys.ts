import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Database } from "../db/index.ts";
import { emailKeys } from "../db/schema.ts";

/**
 * This deployment's email keys (decision 0034), made on first use and kept in the database so every API process and
 * worker shares them and rotating SESSION_SECRET breaks no link: the salt of suppression hashes and the HMAC key of
 * the manage and unsubscribe links.
 */
export interface EmailKeys {
  salt: Buffer;
  linkKey: Buffer;
}

const loaded = new WeakMap<Database, Promise<EmailKeys>>();

export function emailKeysOf(db: Database): Promise<EmailKeys> {
  let keys = loaded.get(db);
  if (!keys) {
    keys = (async () => {
      await db
        .insert(emailKeys)
        .values({ id: 1, salt: randomBytes(32).toString("hex"), linkKey: randomBytes(32).toString("hex") })
        .onConflictDoNothing();
      const [row] = await db.select().from(emailKeys);
      return { salt: Buffer.from(row.salt, "hex"), linkKey: Buffer.from(row.linkKey, "hex") };
    })();
    keys.catch(() => loaded.delete(db));
    loaded.set(db, keys);
  }
  return keys;
}

/** An address as stored and compared: trimmed and lower-cased (providers treat the local part case-insensitively). */
export const normalAddress = (address: string) => address.trim().toLowerCase();

/** The salted hash suppressions and rate-limit keys use instead of the address. */
export function addressHash(keys: EmailKeys, address: string): string {
  return createHmac("sha256", keys.salt).update(normalAddress(address)).digest("hex");
}

/** A confirmation token: 32 random bytes for the link, and the SHA-256 hash that is stored instead. */
export function newConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: confirmTokenHash(token) };
}

export const confirmTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

const LINK_MAC_BYTES = 16;

function linkMac(keys: EmailKeys, subscriberId: string): Buffer {
  return createHmac("sha256", keys.linkKey)
    .update(`email-link:${subscriberId}`)
    .digest()
    .subarray(0, LINK_MAC_BYTES);
}

/**
 * The token of a subscriber's manage and unsubscribe links: its id and an HMAC of it. Nothing is stored: it works
 * for as long as the subscription exists, and unsubscribing (which deletes the row) ends it.
 */
export function linkToken(keys: EmailKeys, subscriberId: string): string {
  const id = Buffer.from(subscriberId.replaceAll("-", ""), "hex");
  return Buffer.concat([id, linkMac(keys, subscriberId)]).toString("base64url");
}

/** The subscriber id a link token names, when its HMAC holds; null otherwise. */
export function subscriberOfLinkToken(keys: EmailKeys, token: string): string | null {
  const bytes = Buffer.from(token, "base64url");
  // Decoding skips characters outside the alphabet and ignores a last character's spare bits: only the one
  // spelling this server writes is a token, so a link that was altered anywhere stops working.
  if (bytes.length !== 16 + LINK_MAC_BYTES || bytes.toString("base64url") !== token) return null;
  const hex = bytes.subarray(0, 16).toString("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return timingSafeEqual(bytes.subarray(16), linkMac(keys, id)) ? id : null;
}

export const newSubscriberId = () => randomUUID();
