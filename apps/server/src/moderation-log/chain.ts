import { createHash, createPublicKey, randomBytes, verify } from "node:crypto";
import type { LogEntry, LogSignature } from "@curate/core";

/**
 * The moderation log's format (docs/decisions/0027), shared by the server that writes and checks it and by
 * `verify-log`, which recomputes it from what anyone can download. Everything hashed or signed is canonical JSON:
 * object keys sorted, no spaces, strings as JSON.stringify writes them.
 */
export const LOG_FORMAT_VERSION = 1;
/** The `prev` of a feed's first entry. */
export const GENESIS_PREV = "0".repeat(64);

export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      throw new Error(`the log holds whole numbers only, not ${value}`);
    }
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(",")}}`;
}

export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A fresh salt: a withheld value as short as a name or "spam" cannot be found by hashing guesses. */
export const newSalt = () => randomBytes(16).toString("hex");

/** The digest of one part of an entry, bound to its name so parts cannot be swapped. */
export function fieldDigest(name: string, salt: string, value: unknown): string {
  return sha256(`curate-log-field-v1\n${name}\n${salt}\n${canonical(value)}`);
}

/** What an entry's hash covers of its parts: their digests only, so any part can be withheld. */
export function contentDigest(digests: Record<string, string>): string {
  return sha256(`curate-log-content-v1\n${canonical(digests)}`);
}

/** The public header of an entry; its hash is the chain link the next entry names. */
export interface EntryHeader {
  feed: string;
  seq: number;
  at: string;
  action: string;
  via: string;
  network: string | null;
  prev: string;
  content: string;
}

export function entryHash(header: EntryHeader): string {
  return sha256(`curate-log-entry-v1\n${canonical({ v: LOG_FORMAT_VERSION, ...header })}`);
}

/** The bytes the instance signs for a feed's head. */
export function headMessage(head: Omit<LogSignature, "signature">): Buffer {
  return Buffer.from(
    `curate-log-head-v1\n${canonical({ feed: head.feed, seq: head.seq, hash: head.hash, signedAt: head.signedAt, key: head.key })}`,
    "utf8",
  );
}

/** A raw 32-byte Ed25519 public key as a key object (SPKI DER is a fixed prefix and the key). */
export function ed25519PublicKey(raw: Buffer) {
  return createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]),
    format: "der",
    type: "spki",
  });
}

/** A key's id: the first 16 hex digits of the SHA-256 of its raw public key. */
export const keyId = (raw: Buffer) => createHash("sha256").update(raw).digest("hex").slice(0, 16);

export interface ChainBreak {
  seq: number;
  problem: string;
}

export interface ChainReport {
  entries: number;
  signatures: number;
  head: { seq: number; hash: string } | null;
  break: ChainBreak | null;
}

/**
 * Checks a feed's entries, fed oldest first, and the signed heads among them: each entry follows the one before,
 * its disclosed parts match their digests, its hash matches its contents, and each signature is the instance's
 * (a key it publishes) over the hash the entries reach at that point. Stops at the first break and says where.
 */
export class ChainVerifier {
  private readonly feed: string;
  private readonly keys: ReadonlyMap<string, Buffer>;
  private expectedSeq = 0;
  private previous = GENESIS_PREV;
  private entries = 0;
  private checkedSignatures = 0;
  private failure: ChainBreak | null = null;
  private readonly pending: LogSignature[];

  constructor(
    feed: string,
    signatures: readonly LogSignature[],
    keys: ReadonlyMap<string, Buffer>,
    /** Where to resume: an entry already checked (a signed head), whose successors come next. */
    after?: { seq: number; hash: string },
  ) {
    this.feed = feed;
    this.keys = keys;
    this.pending = [...signatures].sort((a, b) => b.seq - a.seq);
    if (after) {
      this.expectedSeq = after.seq + 1;
      this.previous = after.hash;
    }
  }

  get broken(): ChainBreak | null {
    return this.failure;
  }

  /** Checks the next entry; answers false once the chain is broken. */
  add(entry: LogEntry): boolean {
    if (this.failure) return false;
    const seq = entry.seq;
    const fail = (problem: string) => {
      this.failure = { seq, problem };
      return false;
    };
    if (entry.feed !== this.feed)
      return fail(`entry ${seq} belongs to feed "${entry.feed}", not "${this.feed}".`);
    if (seq !== this.expectedSeq) {
      return fail(
        seq > this.expectedSeq
          ? `entry ${this.expectedSeq} is missing: the next entry is ${seq}.`
          : `entry ${seq} comes again or out of order after entry ${this.expectedSeq - 1}.`,
      );
    }
    if (seq === 0 && entry.action !== "genesis") return fail("entry 0 is not the log's genesis.");
    if (entry.prev !== this.previous) {
      return fail(
        `entry ${seq} does not follow entry ${seq - 1}: its previous hash is not that entry's hash.`,
      );
    }
    const digests: Record<string, string> = {};
    for (const [name, field] of Object.entries(entry.fields)) {
      if (field.salt !== undefined && field.digest !== fieldDigest(name, field.salt, field.value ?? null)) {
        return fail(`entry ${seq}: its ${name} does not match the digest the chain committed to.`);
      }
      digests[name] = field.digest;
    }
    const hash = entryHash({
      feed: entry.feed,
      seq,
      at: entry.at,
      action: entry.action,
      via: entry.via,
      network: entry.network,
      prev: entry.prev,
      content: contentDigest(digests),
    });
    if (hash !== entry.hash) {
      return fail(
        `entry ${seq}: its hash does not match its contents (it was changed after it was written).`,
      );
    }
    this.previous = hash;
    this.expectedSeq = seq + 1;
    this.entries++;
    return this.checkSignaturesAt(seq, hash);
  }

  private checkSignaturesAt(seq: number, hash: string): boolean {
    while (this.pending.length && this.pending[this.pending.length - 1].seq <= seq) {
      const signature = this.pending.pop() as LogSignature;
      const problem = this.signatureProblem(signature, signature.seq === seq ? hash : null);
      if (problem) {
        this.failure = { seq: signature.seq, problem };
        return false;
      }
      this.checkedSignatures++;
    }
    return true;
  }

  private signatureProblem(signature: LogSignature, hash: string | null): string | null {
    const at = `the head signed at entry ${signature.seq} (${signature.signedAt})`;
    if (signature.feed !== this.feed) return `${at} is for feed "${signature.feed}".`;
    if (hash === null) return `${at} names an entry the log does not hold in order.`;
    const raw = this.keys.get(signature.key);
    if (!raw) return `${at} is signed with key ${signature.key}, which the instance does not publish.`;
    let valid = false;
    try {
      valid = verify(
        null,
        headMessage(signature),
        ed25519PublicKey(raw),
        Buffer.from(signature.signature, "base64"),
      );
    } catch {
      valid = false;
    }
    if (!valid) return `${at} has a signature that key ${signature.key} did not make.`;
    if (signature.hash !== hash) {
      return `${at} does not match the log: an entry at or before ${signature.seq} was changed after it was signed.`;
    }
    return null;
  }

  /** After the last entry: signatures beyond it are heads the log no longer reaches. */
  finish(): ChainReport {
    if (!this.failure && this.pending.length) {
      const beyond = this.pending[this.pending.length - 1];
      this.failure = {
        seq: beyond.seq,
        problem: `the head signed at entry ${beyond.seq} (${beyond.signedAt}) is beyond the log's last entry: entries were removed.`,
      };
    }
    return {
      entries: this.entries,
      signatures: this.checkedSignatures,
      head: this.expectedSeq > 0 ? { seq: this.expectedSeq - 1, hash: this.previous } : null,
      break: this.failure,
    };
  }
}
