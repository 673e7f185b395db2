import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import type { LogEntry, LogKeys } from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { freshDatabase, startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { type ServedApp, serveApp } from "../../test/serve-app.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { exportArchive, importArchive } from "../backup/archive.ts";
import { moderationLogEntries, moderationLogHeads, moderationLogSignatures } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { contentDigest, entryHash } from "./chain.ts";
import { logLater, withModerationLog } from "./journal.ts";
import { logSigner } from "./keys.ts";
import { checkAllLogs, checkFeedLog, signHeads } from "./service.ts";
import { verifyLog } from "./verify.ts";

const ROOT = join(import.meta.dirname, "../../../..");
const quiet = createLogger("silent");
const work = mkdtempSync(join(tmpdir(), "curate-log-"));
const seedA = randomBytes(32);
const seedB = randomBytes(32);
let server: TestServer;
const ownerKey = newKey();
let owner: string;
let stranger: string;

beforeAll(async () => {
  server = await startTestServer({
    LOG_SIGNING_KEY: seedA.toString("hex"),
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "1000",
  });
  owner = (await signIn(server, ownerKey)).cookie;
  stranger = (await signIn(server)).cookie;
  for (const id of ["busy", "signed", "redacted", "tampered"]) {
    await insertFeed(server.db, { id, createdBy: ownerKey.implicitAccountId });
  }
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const send = (method: string, path: string, cookie: string, body?: unknown, base = server) =>
  base.json(path, {
    method,
    headers: sessionHeaders(server, cookie),
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function decide(feedId: string, submissionId: string, action = "approve", note?: string) {
  const answer = await send("POST", "/api/moderate", owner, { feedId, submissionId, action, note });
  expect(answer.status).toBe(200);
}

async function pending(feedId: string, ids: string[]) {
  for (const id of ids) await insertSubmission(server.db, { tweetId: id, feeds: [{ feedId }] });
}

async function storedLog(feedId: string): Promise<LogEntry[]> {
  const page = await server.json(`/api/feeds/${feedId}/log?order=oldest&limit=100`);
  return page.body.data.items;
}

const runCli = promisify(execFile);

describe("appending", () => {
  it("never forks a feed's chain under 20 decisions at once, with bulk decisions beside them", async () => {
    const ids = Array.from({ length: 30 }, (_, n) => `busy-${n}`);
    await pending("busy", ids);
    const answers = await Promise.all([
      ...ids.slice(0, 20).map((id, n) =>
        send("POST", "/api/moderate", owner, {
          feedId: "busy",
          submissionId: id,
          action: n % 3 ? "approve" : "reject",
        }),
      ),
      send("POST", "/api/moderate/bulk", owner, {
        feedId: "busy",
        action: "approve",
        submissionIds: ids.slice(20, 25),
      }),
      send("POST", "/api/moderate/bulk", owner, {
        feedId: "busy",
        action: "reject",
        submissionIds: ids.slice(25),
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(22).fill(200));

    const entries = await storedLog("busy");
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 31 }, (_, n) => n));
    for (const [n, entry] of entries.entries()) {
      expect(entry.prev).toBe(n === 0 ? "0".repeat(64) : entries[n - 1].hash);
    }
    expect(new Set(entries.slice(1).map((entry) => entry.fields.item.value))).toEqual(new Set(ids));
    const outcome = await verifyLog(`${server.baseUrl}/api/feeds/busy/log`);
    expect(outcome.report).toMatchObject({ entries: 31, break: null });
  });

  it("serializes appends of 20 transactions at once on the feed's head (nothing else orders them)", async () => {
    await insertFeed(server.db, { id: "raced" });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, n) =>
        withModerationLog(server.db, async (tx) =>
          logLater(tx, [{ feedId: "raced", action: "rules_changed", via: "app", details: { n } }]),
        ),
      ),
    );
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    const entries = await storedLog("raced");
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 21 }, (_, n) => n));
    expect((await verifyLog(`${server.baseUrl}/api/feeds/raced/log`)).report).toMatchObject({
      entries: 21,
      break: null,
    });
  });
});

describe("signing", () => {
  it("signs a head while entries arrive, and verify-log checks every signed head against the published keys", async () => {
    await pending("signed", ["s1", "s2", "s3"]);
    const signerA = logSigner(seedA);
    await decide("signed", "s1");
    expect(await signHeads(server.db, signerA, quiet)).toBeGreaterThanOrEqual(1);
    // Nothing new since: nothing to sign.
    const before = await server.db.select().from(moderationLogSignatures);
    expect(await signHeads(server.db, signerA, quiet)).toBe(0);
    expect(await server.db.select().from(moderationLogSignatures)).toEqual(before);
    await decide("signed", "s2");
    expect(await signHeads(server.db, signerA, quiet)).toBe(1);

    const page = await server.json("/api/feeds/signed/log");
    expect(page.body.data.signature).toMatchObject({ feed: "signed", seq: 2, key: signerA.id });
    const keys = await server.json("/.well-known/curate/log-key.json");
    expect(keys.status).toBe(200);
    expect(keys.headers.get("access-control-allow-origin")).toBe("*");
    expect(keys.body).toEqual({
      format: "curate-log-keys",
      version: 1,
      keys: [
        {
          id: signerA.id,
          algorithm: "Ed25519",
          publicKey: signerA.publicKey,
          current: true,
          firstUsedAt: expect.any(String),
        },
      ],
    });
    const outcome = await verifyLog(`${server.baseUrl}/feed/signed`);
    expect(outcome.report).toMatchObject({ entries: 3, signatures: 2, break: null });

    // A downloaded copy checks on its own (with the keys it carries), and a cut-off one says so.
    const download = await server.request("/api/feeds/signed/log/download");
    expect(download.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(download.headers.get("content-disposition")).toBe(
      'attachment; filename="signed-moderation-log.jsonl"',
    );
    const lines = (await download.text()).trim().split("\n");
    const file = join(work, "signed.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const copy = await verifyLog(file);
    expect(copy.report).toMatchObject({ entries: 3, signatures: 2, break: null });
    expect(copy.keysFrom).toMatch(/^the file itself/);
    writeFileSync(file, `${lines.slice(0, -1).join("\n")}\n`);
    expect((await verifyLog(file)).report.break).toEqual({
      seq: 3,
      problem: "the download ends early: it was cut off after the last entry checked.",
    });
    writeFileSync(file, `${lines.slice(0, -2).join("\n")}\n`);
    expect((await verifyLog(file)).report.break).toMatchObject({
      seq: 2,
      problem: expect.stringContaining("beyond the log's last entry: entries were removed"),
    });
  });

  it("keeps heads signed before a key rotation verifiable: earlier keys stay published", async () => {
    const rotated: ServedApp = await serveApp(server.database, {
      NODE_ENV: "test",
      LOG_SIGNING_KEY: seedB.toString("base64"),
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    });
    try {
      const signerA = logSigner(seedA);
      const signerB = logSigner(seedB);
      await decide("signed", "s3");
      expect(await signHeads(server.db, signerB, quiet)).toBe(1);
      const keys = (await (
        await fetch(`${rotated.baseUrl}/.well-known/curate/log-key.json`)
      ).json()) as LogKeys;
      expect(keys.keys.map((key) => [key.id, key.current])).toEqual([
        [signerA.id, false],
        [signerB.id, true],
      ]);
      const outcome = await verifyLog(`${rotated.baseUrl}/api/feeds/signed/log`);
      expect(outcome.report).toMatchObject({ entries: 4, signatures: 3, break: null });

      // Against the new key alone, the heads the old one signed do not verify.
      const onlyB = join(work, "only-b.json");
      writeFileSync(
        onlyB,
        JSON.stringify({ ...keys, keys: keys.keys.filter((key) => key.id === signerB.id) }),
      );
      const strict = await verifyLog(`${rotated.baseUrl}/api/feeds/signed/log`, { keys: onlyB });
      expect(strict.report.break).toEqual({
        seq: 1,
        problem: expect.stringContaining(
          `signed with key ${signerA.id}, which the instance does not publish`,
        ),
      });
    } finally {
      await rotated.close();
    }
  });
});

describe("redaction", () => {
  it("withholds a part for good, records who and why, and the chain still verifies", async () => {
    await pending("redacted", ["r1", "r2"]);
    await decide("redacted", "r1", "reject", "the author's home address was in it");
    await decide("redacted", "r2", "approve", "fine");
    const [, rejected] = await storedLog("redacted");

    const refused = await send("POST", `/api/feeds/redacted/log/${rejected.seq}/redact`, stranger, {
      fields: ["note"],
      reason: "legal",
    });
    expect(refused.status).toBe(403);
    const answer = await send("POST", `/api/feeds/redacted/log/${rejected.seq}/redact`, owner, {
      fields: ["note", "item"],
      reason: "Personal data (legal request 2026-114)",
    });
    expect(answer.status).toBe(200);
    const { entry, redaction } = answer.body.data;
    expect(entry.hash).toBe(rejected.hash);
    expect(entry.fields.note).toEqual({
      digest: rejected.fields.note.digest,
      withheld: "redacted",
      redactedBy: redaction.seq,
    });
    expect(entry.fields.item).toMatchObject({ withheld: "redacted", redactedBy: redaction.seq });
    expect(entry.fields.actor.value).toEqual({ account: ownerKey.implicitAccountId, handle: null });
    expect(redaction).toMatchObject({ action: "redact", seq: 3 });
    expect(redaction.fields.details.value).toEqual({ entry: rejected.seq, fields: ["note", "item"] });
    expect(redaction.fields.note.value).toBe("Personal data (legal request 2026-114)");

    const [stored] = await server.db
      .select()
      .from(moderationLogEntries)
      .where(and(eq(moderationLogEntries.feedId, "redacted"), eq(moderationLogEntries.seq, rejected.seq)));
    expect(JSON.stringify(stored.fields)).not.toContain("home address");
    expect(stored.submissionId).toBeNull();

    expect((await verifyLog(`${server.baseUrl}/api/feeds/redacted/log`)).report).toMatchObject({
      entries: 4,
      break: null,
    });
    expect((await checkFeedLog(server.db, "redacted", quiet)).break).toBeNull();

    const redact = (seq: number, body: unknown) =>
      send("POST", `/api/feeds/redacted/log/${seq}/redact`, owner, body);
    expect((await redact(rejected.seq, { fields: ["note"], reason: "again" })).status).toBe(409);
    expect((await redact(0, { fields: ["note"], reason: "the genesis" })).status).toBe(409);
    expect((await redact(redaction.seq, { fields: ["note"], reason: "a redaction" })).status).toBe(409);
    expect((await redact(99, { fields: ["note"], reason: "none" })).status).toBe(404);
    expect((await redact(2, { fields: ["history"], reason: "x" })).status).toBe(400);
    expect((await redact(2, { fields: ["note"], reason: " " })).status).toBe(400);
    expect((await redact(2, { fields: [], reason: "x" })).status).toBe(400);
  });
});

describe("tampering", () => {
  const entryRow = (seq: number) =>
    and(eq(moderationLogEntries.feedId, "tampered"), eq(moderationLogEntries.seq, seq));

  it("an edited row fails verify-log, the self-check and the health check at that entry", async () => {
    await pending("tampered", ["t1", "t2", "t3", "t4"]);
    for (const id of ["t1", "t2", "t3"]) await decide("tampered", id, "approve", `note ${id}`);
    await signHeads(server.db, logSigner(seedA), quiet);
    expect((await checkFeedLog(server.db, "tampered", quiet)).break).toBeNull();

    // Someone with the database quietly turns the approval of t2 (entry 2) into a rejection.
    await server.db.update(moderationLogEntries).set({ action: "reject" }).where(entryRow(2));

    const url = `${server.baseUrl}/api/feeds/tampered/log`;
    const outcome = await verifyLog(url);
    expect(outcome.report.break).toEqual({
      seq: 2,
      problem: "entry 2: its hash does not match its contents (it was changed after it was written).",
    });
    const cli = await runCli(process.execPath, ["apps/server/src/moderation-log/verify-cli.ts", url], {
      cwd: ROOT,
    }).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('The moderation log of "tampered" breaks at entry 2');

    expect((await checkFeedLog(server.db, "tampered", quiet)).break?.seq).toBe(2);
    const health = await server.json("/api/health");
    expect(health.body.data.moderationLog).toMatchObject({
      status: "broken",
      broken: [{ feedId: "tampered", entry: 2, problem: expect.stringContaining("hash does not match") }],
    });
    const page = await server.json("/api/feeds/tampered/log");
    expect(page.body.data.integrity).toMatchObject({ status: "broken", brokenAt: 2 });

    // A broken log is reported, never signed again.
    await decide("tampered", "t4");
    expect(await signHeads(server.db, logSigner(seedA), quiet)).toBe(0);
    const stored = await server.db
      .select()
      .from(moderationLogEntries)
      .where(eq(moderationLogEntries.feedId, "tampered"));

    // Rewriting every hash from the edit on makes a chain that holds together, but not with the signed head.
    const rows = await server.db
      .select()
      .from(moderationLogEntries)
      .where(eq(moderationLogEntries.feedId, "tampered"));
    let previous = rows.find((row) => row.seq === 1)?.hash as string;
    for (const row of rows.filter((row) => row.seq >= 2).sort((a, b) => a.seq - b.seq)) {
      const digests = Object.fromEntries(
        Object.entries(row.fields).map(([name, field]) => [name, field.digest]),
      );
      const hash = entryHash({
        feed: row.feedId,
        seq: row.seq,
        at: row.at.toISOString(),
        action: row.action,
        via: row.via,
        network: row.network,
        prev: previous,
        content: contentDigest(digests),
      });
      await server.db.update(moderationLogEntries).set({ prevHash: previous, hash }).where(entryRow(row.seq));
      previous = hash;
    }
    await server.db
      .update(moderationLogHeads)
      .set({ hash: previous })
      .where(eq(moderationLogHeads.feedId, "tampered"));
    expect((await verifyLog(url)).report.break).toEqual({
      seq: 3,
      problem: expect.stringMatching(
        /^the head signed at entry 3 .* does not match the log: an entry at or before 3 was changed/,
      ),
    });

    // Put back as written, the log verifies again; then a part edited in storage (here a note) is caught by the
    // self-check, which also reads private parts.
    for (const row of stored) {
      await server.db
        .update(moderationLogEntries)
        .set({ action: row.seq === 2 ? "approve" : row.action, prevHash: row.prevHash, hash: row.hash })
        .where(entryRow(row.seq));
    }
    await server.db
      .update(moderationLogHeads)
      .set({ hash: stored.find((row) => row.seq === 4)?.hash })
      .where(eq(moderationLogHeads.feedId, "tampered"));
    expect((await checkFeedLog(server.db, "tampered", quiet)).break).toBeNull();
    await server.db.execute(
      sql`update moderation_log_entries set fields = jsonb_set(fields, '{note,value}', '"note t9"')
        where feed_id = 'tampered' and seq = 3`,
    );
    expect((await checkFeedLog(server.db, "tampered", quiet)).break).toEqual({
      seq: 3,
      problem: "entry 3: its note does not match the digest the chain committed to.",
    });
  });
});

describe("export and import", () => {
  it("keep the logs and their signatures, and verify-log passes on the restored copy", async () => {
    // The tampered feed is put right first: the copy should verify as the original does.
    await server.db.execute(
      sql`update moderation_log_entries set fields = jsonb_set(fields, '{note,value}', '"note t3"')
        where feed_id = 'tampered' and seq = 3`,
    );
    expect(await checkAllLogs(server.db, quiet)).toMatchObject({ broken: 0 });
    const file = join(work, "backup.curate.gz");
    await exportArchive(server.db, join(work, "uploads"), file);

    const target = await freshDatabase();
    await importArchive(target.handle.db, join(work, "restored-uploads"), file);
    const restored = await serveApp(target.handle, {
      NODE_ENV: "test",
      LOG_SIGNING_KEY: randomBytes(32).toString("hex"),
    });
    try {
      for (const feed of ["busy", "raced", "signed", "redacted", "tampered"]) {
        const outcome = await verifyLog(`${restored.baseUrl}/api/feeds/${feed}/log`);
        expect(outcome.report.break, feed).toBeNull();
        expect(outcome.report.signatures, feed).toBe(
          (
            await server.db
              .select()
              .from(moderationLogSignatures)
              .where(eq(moderationLogSignatures.feedId, feed))
          ).length,
        );
      }
      expect(await checkAllLogs(target.handle.db, quiet)).toMatchObject({ checked: 5, broken: 0 });
    } finally {
      await restored.close();
      await target.dispose();
    }
  });
});

describe("the worker", () => {
  it("signs heads and re-checks every log on its intervals, and logs a break at error level", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const worker = await startTestServer(
      { LOG_SIGN_INTERVAL_MS: "1000", LOG_CHECK_INTERVAL_MS: "1000", AUTH_RATE_LIMIT_PER_MINUTE: "1000" },
      { worker: {}, logger: pino({ level: "warn" }, stream) },
    );
    try {
      const key = newKey();
      const { cookie } = await signIn(worker, key);
      await insertFeed(worker.db, { id: "watched", createdBy: key.implicitAccountId });
      await insertSubmission(worker.db, { tweetId: "w1", feeds: [{ feedId: "watched" }] });
      const decided = await worker.json("/api/moderate", {
        method: "POST",
        headers: sessionHeaders(worker, cookie),
        body: JSON.stringify({ feedId: "watched", submissionId: "w1", action: "approve" }),
      });
      expect(decided.status).toBe(200);
      await expect
        .poll(async () => (await worker.json("/api/feeds/watched/log")).body.data.signature?.seq)
        .toBe(1);
      await expect
        .poll(async () => (await worker.json("/api/health")).body.data.moderationLog.status)
        .toBe("ok");

      await worker.db
        .update(moderationLogEntries)
        .set({ via: "reply" })
        .where(and(eq(moderationLogEntries.feedId, "watched"), eq(moderationLogEntries.seq, 1)));
      await expect
        .poll(async () => (await worker.json("/api/health")).body.data.moderationLog.broken)
        .toEqual([{ feedId: "watched", entry: 1, problem: expect.stringContaining("hash does not match") }]);
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 50, feedId: "watched", entry: 1, problem: expect.any(String) }),
      );
    } finally {
      await worker.close();
    }
  });
});

// Last: its feed and entries would change what the tests above count.
describe("reading a download", () => {
  it("checks a downloaded log whose texts hold line and paragraph separators, ended by a line feed only", async () => {
    await insertFeed(server.db, { id: "separators", createdBy: ownerKey.implicitAccountId });
    await pending("separators", ["u1"]);
    await decide("separators", "u1", "approve", "first\u2028second\u2029third\rfourth");
    const text = await (await server.request("/api/feeds/separators/log/download")).text();
    // JSON lets them stand unescaped, so the file holds them as they are: a reader must not end a line there.
    expect(text).toContain("\u2028");
    const file = join(work, "separators.jsonl");
    writeFileSync(file, text);
    expect((await verifyLog(file)).report).toMatchObject({ entries: 2, break: null });
  });
});
