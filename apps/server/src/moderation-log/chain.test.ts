import { randomBytes } from "node:crypto";
import type { LogEntry } from "@curate/core";
import { describe, expect, it } from "vitest";
import { ChainVerifier, canonical, contentDigest, entryHash, fieldDigest, GENESIS_PREV } from "./chain.ts";
import { logSigner } from "./keys.ts";

/** A chain of `count` entries of feed "ai", each with a note, built as the server builds them. */
function chain(count: number): LogEntry[] {
  const entries: LogEntry[] = [];
  for (let seq = 0; seq < count; seq++) {
    const salt = `salt${seq}`;
    const fields = { note: { digest: fieldDigest("note", salt, `note ${seq}`), salt, value: `note ${seq}` } };
    const header = {
      feed: "ai",
      seq,
      at: new Date(Date.UTC(2026, 10, 24, 10, 0, seq)).toISOString(),
      action: seq === 0 ? "genesis" : "approve",
      via: seq === 0 ? "system" : "app",
      network: null,
      prev: entries[seq - 1]?.hash ?? GENESIS_PREV,
      content: contentDigest({ note: fields.note.digest }),
    };
    entries.push({
      ...header,
      action: header.action as LogEntry["action"],
      via: header.via as LogEntry["via"],
      hash: entryHash(header),
      fields,
    });
  }
  return entries;
}

function verify(
  entries: LogEntry[],
  signatures: ReturnType<ReturnType<typeof logSigner>["sign"]>[] = [],
  keys = new Map<string, Buffer>(),
) {
  const verifier = new ChainVerifier("ai", signatures, keys);
  for (const entry of entries) if (!verifier.add(entry)) break;
  return verifier.finish();
}

describe("canonical JSON", () => {
  it("sorts keys at every depth, leaves out undefined, and takes whole numbers only", () => {
    expect(canonical({ b: 1, a: { d: [1, "x", null], c: true }, e: undefined })).toBe(
      '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
    );
    expect(() => canonical({ a: 1.5 })).toThrow(/whole numbers/);
  });
});

describe("ChainVerifier", () => {
  it("accepts a chain built in order, with its signed heads", () => {
    const signer = logSigner(randomBytes(32));
    const entries = chain(5);
    const signatures = [2, 4].map((seq) =>
      signer.sign({ feed: "ai", seq, hash: entries[seq].hash, signedAt: "2026-11-24T10:05:00.000Z" }),
    );
    const keys = new Map([[signer.id, Buffer.from(signer.publicKey, "base64")]]);
    expect(verify(entries, signatures, keys)).toEqual({
      entries: 5,
      signatures: 2,
      head: { seq: 4, hash: entries[4].hash },
      break: null,
    });
  });

  it("names the entry that breaks it: edited, missing, out of order, or a part that does not match", () => {
    const edited = chain(4);
    edited[2] = { ...edited[2], at: "2026-11-24T11:00:00.000Z" };
    expect(verify(edited).break?.seq).toBe(2);

    const gap = chain(4);
    expect(verify([gap[0], gap[1], gap[3]]).break).toEqual({
      seq: 3,
      problem: "entry 2 is missing: the next entry is 3.",
    });
    expect(verify([gap[0], gap[2], gap[1]]).break?.seq).toBe(2);

    const note = chain(3);
    note[1] = { ...note[1], fields: { note: { ...note[1].fields.note, value: "rewritten" } } };
    expect(verify(note).break).toEqual({
      seq: 1,
      problem: "entry 1: its note does not match the digest the chain committed to.",
    });

    // A withheld part (no salt, no value) still counts by its digest.
    const withheld = chain(3);
    withheld[1] = {
      ...withheld[1],
      fields: { note: { digest: withheld[1].fields.note.digest, withheld: "redacted" } },
    };
    expect(verify(withheld).break).toBeNull();
  });

  it("notices entries cut from the end by a signed head beyond them, and heads signed with unknown keys", () => {
    const signer = logSigner(randomBytes(32));
    const entries = chain(4);
    const signature = signer.sign({
      feed: "ai",
      seq: 3,
      hash: entries[3].hash,
      signedAt: "2026-11-24T10:05:00.000Z",
    });
    const keys = new Map([[signer.id, Buffer.from(signer.publicKey, "base64")]]);
    expect(verify(entries.slice(0, 3), [signature], keys).break).toMatchObject({
      seq: 3,
      problem: expect.stringContaining("beyond the log's last entry"),
    });
    expect(verify(entries, [signature]).break?.problem).toContain("which the instance does not publish");
    const forged = { ...signature, signature: Buffer.alloc(64).toString("base64") };
    expect(verify(entries, [forged], keys).break?.problem).toContain(`key ${signer.id} did not make`);
  });
});
