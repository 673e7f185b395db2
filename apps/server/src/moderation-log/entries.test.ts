import type { LogEntry, LogPage } from "@curate/core";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { moderationHistory } from "../db/schema.ts";
import { runFeedSources } from "../intake/feed-sources.ts";
import { runBulkRun } from "../moderation/bulk-runs.ts";
import { canonical, sha256 } from "./chain.ts";
import { openMissingLogs } from "./journal.ts";
import { verifyLog } from "./verify.ts";

let server: TestServer;
const ownerKey = newKey();
const adminKey = newKey();
let owner: string;
let admin: string;

const config = {
  id: "logged",
  name: "Logged",
  description: "A feed whose moderation is logged",
  admins: [adminKey.implicitAccountId],
  moderation: { approvers: { twitter: ["amy"] }, undoWindowSeconds: 600 },
  outputs: { stream: { enabled: true } },
};

beforeAll(async () => {
  server = await startTestServer({
    BOT_HANDLE: "curatebot",
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "1000",
  });
  owner = (await signIn(server, ownerKey)).cookie;
  admin = (await signIn(server, adminKey)).cookie;
});

afterAll(() => server.close());

const send = (method: string, path: string, cookie: string, body?: unknown) =>
  server.json(path, {
    method,
    headers: sessionHeaders(server, cookie),
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const post = (text: string, username: string, inReplyToStatusId?: string) =>
  send("POST", "/api/test/tweets", owner, { text, username, inReplyToStatusId });

/** The feed's whole log, oldest first. */
async function logOf(feedId: string, query = ""): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  let cursor: string | null = null;
  do {
    const path = `/api/feeds/${feedId}/log?order=oldest&limit=100${query}${cursor ? `&cursor=${cursor}` : ""}`;
    const page: { status: number; body: { data: LogPage } } = await server.json(path);
    expect(page.status).toBe(200);
    entries.push(...page.body.data.items);
    cursor = page.body.data.pagination.nextCursor;
  } while (cursor);
  return entries;
}

const partOf = (entry: LogEntry | undefined, field: string) => entry?.fields[field]?.value;

/** The entries after `seq`, in order. */
const after = async (feedId: string, seq: number) => (await logOf(feedId)).filter((entry) => entry.seq > seq);
const headOf = async (feedId: string) => (await logOf(feedId)).at(-1)?.seq ?? -1;

describe("the moderation log's entries", () => {
  it("opens a new feed's log with its genesis, then who moderates it", async () => {
    expect((await send("POST", "/api/feeds", owner, config)).status).toBe(201);
    const entries = await logOf("logged");
    expect(entries.map((entry) => [entry.seq, entry.action, entry.via])).toEqual([
      [0, "genesis", "system"],
      [1, "approvers_changed", "app"],
      [2, "admins_changed", "app"],
      [3, "rules_changed", "app"],
    ]);
    expect(partOf(entries[0], "history")).toMatchObject({ count: 0, through: null });
    expect(entries[0].prev).toBe("0".repeat(64));
    expect(entries[1].prev).toBe(entries[0].hash);
    expect(partOf(entries[1], "actor")).toEqual({ account: ownerKey.implicitAccountId, handle: null });
    expect(partOf(entries[1], "details")).toEqual({ added: { twitter: ["amy"] }, removed: {} });
    expect(partOf(entries[2], "details")).toEqual({ added: [adminKey.implicitAccountId], removed: [] });
    expect(partOf(entries[3], "details")).toEqual({
      changes: [{ rule: "undoWindowSeconds", before: null, after: "600" }],
    });
  });

  it("records a submission by reply, an approver's own (auto-approved) and an approval by reply", async () => {
    const start = await headOf("logged");
    const article = await post("A long read about rollups", "author");
    const submit = await post("!submit @curatebot #logged worth a read", "curator_cat", article.body.data.id);
    const own = await post("Sequencers, explained", "author");
    await post("!submit @curatebot #logged mine", "amy", own.body.data.id);
    await post("@curatebot !approve solid", "amy", submit.body.data.id);

    const entries = await after("logged", start);
    expect(entries.map((entry) => [entry.action, entry.via, entry.network])).toEqual([
      ["submit", "reply", "twitter"],
      ["submit", "reply", "twitter"],
      ["approve", "auto_approval", "twitter"],
      ["approve", "reply", "twitter"],
    ]);
    expect(partOf(entries[0], "actor")).toEqual({ account: null, handle: "curator_cat" });
    expect(partOf(entries[0], "item")).toBe(article.body.data.id);
    expect(partOf(entries[0], "note")).toBe("worth a read");
    expect(partOf(entries[2], "actor")).toEqual({ account: null, handle: "amy" });
    expect(partOf(entries[2], "item")).toBe(own.body.data.id);
    expect(partOf(entries[3], "item")).toBe(article.body.data.id);
    expect(partOf(entries[3], "note")).toBe("solid");
  });

  it("records decisions in the app: approve with a note, reject, undo and retract", async () => {
    for (const id of ["a1", "a2", "a3"]) {
      await insertSubmission(server.db, { tweetId: id, feeds: [{ feedId: "logged" }] });
    }
    const start = await headOf("logged");
    const moderate = (body: Record<string, unknown>) =>
      send("POST", "/api/moderate", admin, { feedId: "logged", ...body });
    expect((await moderate({ submissionId: "a1", action: "approve", note: "on topic" })).status).toBe(200);
    expect((await moderate({ submissionId: "a2", action: "reject", note: "off topic" })).status).toBe(200);
    expect((await moderate({ submissionId: "a3", action: "approve" })).status).toBe(200);
    const undo = await send("POST", "/api/moderate/undo", admin, { feedId: "logged", submissionId: "a3" });
    expect(undo.status).toBe(200);
    const retract = await send("POST", "/api/moderate/retract", owner, {
      feedId: "logged",
      submissionId: "a1",
      note: "turned out to be spam",
    });
    expect(retract.status).toBe(200);
    // A refused decision (already decided) writes nothing.
    expect((await moderate({ submissionId: "a2", action: "approve" })).status).toBe(409);

    const entries = await after("logged", start);
    expect(entries.map((entry) => [entry.action, entry.via, partOf(entry, "item")])).toEqual([
      ["approve", "app", "a1"],
      ["reject", "app", "a2"],
      ["approve", "app", "a3"],
      ["undo", "app", "a3"],
      ["retract", "app", "a1"],
    ]);
    expect(partOf(entries[0], "actor")).toEqual({ account: adminKey.implicitAccountId, handle: null });
    expect(partOf(entries[0], "note")).toBe("on topic");
    expect(partOf(entries[1], "note")).toBe("off topic");
    expect(partOf(entries[4], "actor")).toEqual({ account: ownerKey.implicitAccountId, handle: null });
    expect(partOf(entries[4], "note")).toBe("turned out to be spam");
    expect(partOf(entries[4], "details")).toMatchObject({ publications: 0, cancelledJobs: 1 });
  });

  it("records a bulk decision in the app, and a background bulk run with each decision it makes", async () => {
    // a3 is pending again since its approval was undone: the run takes it too.
    for (const id of ["b1", "b2", "b3", "b4", "b5"]) {
      await insertSubmission(server.db, { tweetId: id, feeds: [{ feedId: "logged" }] });
    }
    const start = await headOf("logged");
    const bulk = await send("POST", "/api/moderate/bulk", admin, {
      feedId: "logged",
      action: "reject",
      submissionIds: ["b1", "b2"],
    });
    expect(bulk.body.data.decided).toBe(2);
    const run = await send("POST", "/api/moderate/bulk-runs", admin, {
      feedId: "logged",
      action: "approve",
      note: "clearing the queue",
      filter: {},
    });
    expect(run.status).toBe(202);
    expect(await runBulkRun(server.db, run.body.data.id, { chunkPauseMs: 0 })).toBe("finished");

    const entries = await after("logged", start);
    expect(entries.map((entry) => [entry.action, entry.via])).toEqual([
      ["reject", "app"],
      ["reject", "app"],
      ["bulk_run", "app"],
      ["approve", "bulk_run"],
      ["approve", "bulk_run"],
      ["approve", "bulk_run"],
      ["approve", "bulk_run"],
    ]);
    expect(partOf(entries[2], "details")).toMatchObject({
      bulkRun: run.body.data.id,
      action: "approve",
      posts: 4,
    });
    expect(partOf(entries[2], "note")).toBe("clearing the queue");
    expect(entries.slice(3).map((entry) => partOf(entry, "details"))).toEqual(
      Array(4).fill({ bulkRun: run.body.data.id }),
    );
    expect(entries.slice(3).map((entry) => partOf(entry, "item"))).toEqual(
      expect.arrayContaining(["a3", "b3", "b4", "b5"]),
    );
  });

  it("records changes of approvers, admins and moderation rules, and nothing for other settings", async () => {
    const start = await headOf("logged");
    const saved = await send("PUT", "/api/feeds/logged", owner, {
      ...config,
      description: "A new description",
      admins: [],
      moderation: {
        approvers: { twitter: ["amy", "Bea"], bluesky: ["cat.bsky.social"] },
        blacklist: { twitter: ["spammer"] },
        undoWindowSeconds: 600,
      },
    });
    expect(saved.status).toBe(200);
    const entries = await after("logged", start);
    expect(entries.map((entry) => entry.action)).toEqual([
      "approvers_changed",
      "admins_changed",
      "rules_changed",
    ]);
    expect(partOf(entries[0], "details")).toEqual({
      added: { twitter: ["bea"], bluesky: ["cat.bsky.social"] },
      removed: {},
    });
    expect(partOf(entries[1], "details")).toEqual({ added: [], removed: [adminKey.implicitAccountId] });
    expect(partOf(entries[2], "details")).toEqual({
      changes: [{ rule: "blacklist", added: { twitter: ["spammer"] }, removed: {} }],
    });

    const unchanged = await headOf("logged");
    await send("PUT", "/api/feeds/logged", owner, {
      ...config,
      admins: [],
      name: "Renamed",
      moderation: saved.body.data.config.moderation,
    });
    expect(await headOf("logged")).toBe(unchanged);
  });

  it("records what a feed's own source submits", async () => {
    await insertFeed(server.db, {
      id: "sourced",
      config: {
        id: "sourced",
        name: "Sourced",
        description: "d",
        pollingIntervalMs: 60_000,
        sources: [
          { plugin: "@curate/test-source", search: [{ searchId: "zk", type: "keyword", query: "zk" }] },
        ],
      },
    });
    await post("A zk primer", "writer");
    await runFeedSources(server.db, server.intake, { warn() {} } as never, new Date());
    const entries = await logOf("sourced");
    expect(entries.map((entry) => [entry.action, entry.via, entry.network])).toEqual([
      ["genesis", "system", null],
      ["submit", "feed_source", "twitter"],
    ]);
    expect(partOf(entries[1], "details")).toEqual({ source: "feed:sourced:0:zk" });
    expect(entries[1].fields.actor).toBeUndefined();
  });

  it("keeps who rejected private when the feed chooses, and the chain still verifies", async () => {
    await insertFeed(server.db, {
      id: "quiet",
      createdBy: ownerKey.implicitAccountId,
      config: { id: "quiet", name: "Quiet", description: "d", moderation: { nameRejectersInLog: false } },
    });
    await insertSubmission(server.db, { tweetId: "q1", feeds: [{ feedId: "quiet" }] });
    await insertSubmission(server.db, { tweetId: "q2", feeds: [{ feedId: "quiet" }] });
    await send("POST", "/api/moderate", owner, { feedId: "quiet", submissionId: "q1", action: "reject" });
    await send("POST", "/api/moderate", owner, { feedId: "quiet", submissionId: "q2", action: "approve" });
    const [genesis, rejected, approved] = await logOf("quiet");
    expect(genesis.action).toBe("genesis");
    expect(rejected.action).toBe("reject");
    expect(rejected.fields.actor).toEqual({
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      withheld: "private",
    });
    expect(partOf(rejected, "item")).toBe("q1");
    expect(partOf(approved, "actor")).toEqual({ account: ownerKey.implicitAccountId, handle: null });
    // Nobody finds the private rejecter by filtering either.
    const byOwner = await logOf("quiet", `&moderator=${ownerKey.implicitAccountId}`);
    expect(byOwner.map((entry) => entry.seq)).toEqual([approved.seq]);
    const outcome = await verifyLog(`${server.baseUrl}/api/feeds/quiet/log`);
    expect(outcome.report.break).toBeNull();
    expect(outcome.report.entries).toBe(3);
  });

  it("starts a feed from before the log with a genesis committing to its earlier decisions", async () => {
    await insertFeed(server.db, { id: "old", createdBy: ownerKey.implicitAccountId });
    await insertSubmission(server.db, { tweetId: "o1", feeds: [{ feedId: "old", status: "approved" }] });
    await insertSubmission(server.db, { tweetId: "o2", feeds: [{ feedId: "old", status: "rejected" }] });

    // At start-up, every feed without a log gets its genesis.
    expect(await openMissingLogs(server.db)).toBeGreaterThanOrEqual(1);
    await insertFeed(server.db, { id: "older", createdBy: ownerKey.implicitAccountId });
    await insertSubmission(server.db, { tweetId: "o3", feeds: [{ feedId: "older", status: "approved" }] });
    await insertSubmission(server.db, { tweetId: "o4", feeds: [{ feedId: "older" }] });
    const [genesis] = await logOf("old");
    const rows = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.feedId, "old"))
      .orderBy(asc(moderationHistory.id));
    let digest = sha256("");
    for (const row of rows) {
      // The decision as made; what is derived or set later (undo, reputation's classification) is not committed to.
      const {
        feedId: _feed,
        undoneAt: _undone,
        undoneBy: _by,
        updatedAt: _updated,
        curatorUsername: _curator,
        counts: _counts,
        waitSeconds: _wait,
        overturnedAt: _overturned,
        ...kept
      } = row;
      digest = sha256(`${digest}\n${canonical({ ...kept, createdAt: row.createdAt.toISOString() })}`);
    }
    expect(partOf(genesis, "history")).toEqual({ count: 2, through: rows[1].id, digest });

    // A feed's first decision opens its log too, and its genesis leaves that decision to its own entry.
    const older = await server.json("/api/feeds/older/log");
    expect(older.body.data).toMatchObject({ items: [], head: null, signature: null });
    await send("POST", "/api/moderate", owner, { feedId: "older", submissionId: "o4", action: "approve" });
    const [first, decision] = await logOf("older");
    expect(partOf(first, "history")).toMatchObject({ count: 1 });
    expect(decision).toMatchObject({ seq: 1, action: "approve" });
  });

  it("filters by action, moderator, network and day, and pages by cursor both ways", async () => {
    const approvals = await logOf("logged", "&action=approve");
    expect(approvals.length).toBe(8);
    expect(approvals.every((entry) => entry.action === "approve")).toBe(true);
    expect((await logOf("logged", "&moderator=@AMY")).map((entry) => entry.action)).toEqual([
      "submit",
      "approve",
      "approve",
    ]);
    expect((await logOf("logged", "&network=twitter")).length).toBe(4);
    expect(await logOf("logged", "&network=bluesky")).toEqual([]);
    const all = await logOf("logged");
    const firstDay = all[0].at.slice(0, 10);
    const lastDay = all[all.length - 1].at.slice(0, 10);
    expect(await logOf("logged", `&from=${firstDay}&to=${lastDay}`)).toEqual(all);
    expect(await logOf("logged", "&to=2020-01-01")).toEqual([]);

    const first = await server.json("/api/feeds/logged/log?limit=5");
    expect(first.body.data.items.map((entry: LogEntry) => entry.seq)).toEqual(
      [0, 1, 2, 3, 4].map((n) => all.length - 1 - n),
    );
    expect(first.body.data.head).toMatchObject({ seq: all.length - 1, hash: all.at(-1)?.hash });
    const second = await server.json(
      `/api/feeds/logged/log?limit=5&cursor=${first.body.data.pagination.nextCursor}`,
    );
    expect(second.body.data.items[0].seq).toBe(all.length - 6);
    expect(first.body.data.integrity).toEqual({
      status: "unchecked",
      checkedAt: null,
      checkedThrough: null,
      brokenAt: null,
      problem: null,
    });
  });

  it("answers 400 to bad queries and 404 to unknown feeds", async () => {
    for (const query of [
      "limit=101",
      "cursor=abc",
      "order=sideways",
      "action=ballot",
      "from=2026-13-45",
      "network=fax",
    ]) {
      const answer = await server.json(`/api/feeds/logged/log?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await server.json("/api/feeds/nosuchfeed/log")).status).toBe(404);
    expect((await server.request("/api/feeds/nosuchfeed/log/download")).status).toBe(404);
  });
});
