import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertPendingPosts } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { queryRows } from "../db/sql.ts";
import { createLogger } from "../logger.ts";
import { startWorker } from "../worker/host.ts";
import { runBulkRun } from "./bulk-runs.ts";

/**
 * "Select all N matching" beyond the cap of one call: a background run on the worker's queue, decided in chunks,
 * with its progress visible, resumed after a worker restart, each post decided exactly once.
 */
let server: TestServer;
const ownerKey = newKey();
const adminKey = newKey();
let owner: string;
let admin: string;
let stranger: string;

beforeAll(async () => {
  server = await startTestServer(
    { AUTH_RATE_LIMIT_PER_MINUTE: "1000", WRITE_RATE_LIMIT_PER_MINUTE: "100000" },
    { worker: {} },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  admin = (await signIn(server, adminKey)).cookie;
  stranger = (await signIn(server)).cookie;
  for (const [id, undoWindowSeconds] of [
    // The crowded feed holds approvals for an undo window, so its publications wait in the outbox instead of
    // running beside the test on the same embedded database.
    ["crowded", 600],
    ["restart", 0],
    ["undoable", 600],
    ["lonely", 0],
    ["stale", 0],
  ] as const) {
    await insertFeed(server.db, {
      id,
      createdBy: ownerKey.implicitAccountId,
      admins: [adminKey.implicitAccountId],
      config: { id, name: id, description: id, moderation: { undoWindowSeconds } } as never,
    });
  }
});

afterAll(() => server.close());

/**
 * One request on its own connection. The embedded database deciding thousands of posts in this process holds the
 * event loop at times; a kept-alive socket can then be closed by the server's idle timer just as the next request
 * goes out on it, so these calls do not reuse connections.
 */
function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked by assertions, not types
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      `${server.baseUrl}${path}`,
      { method: init.method ?? "GET", headers: { ...init.headers, Connection: "close" }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
            });
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
const headers = (cookie: string) => sessionHeaders(server, cookie);
const post = (path: string, body: unknown, cookie = owner) =>
  call(path, { method: "POST", headers: headers(cookie), body: JSON.stringify(body) });
const get = (path: string, cookie = owner) => call(path, { headers: headers(cookie) });
const progress = (id: string, cookie = owner) => get(`/api/moderate/bulk-runs/${id}`, cookie);

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 240_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const seedQueue = (feedId: string, count: number) => insertPendingPosts(server.db, feedId, count);

/** Per post of the feed: how many decisions it has, and its status. */
async function decisionsOf(feedId: string) {
  return queryRows<{ id: string; decisions: number; status: string }>(
    server.db,
    sql`select sf.submission_id as id, sf.status,
        (select count(*)::int from moderation_history h where h.submission_id = sf.submission_id
          and h.feed_id = sf.feed_id) as decisions
      from submission_feeds sf where sf.feed_id = ${feedId}`,
  );
}

/** The test's own worker on the same database, as a second process's would be. */
const startOwnWorker = () =>
  startWorker({
    database: server.database,
    env: server.env,
    intake: server.intake,
    telemetry: server.telemetry,
    logger: createLogger("silent"),
  });

/** Decides `chunks` chunks of a run in-process, then stops between chunks as a stopping worker does. */
async function decideChunks(runId: string, chunks: number) {
  let started = 0;
  return runBulkRun(server.db, runId, { shouldStop: () => started++ >= chunks, chunkPauseMs: 0 });
}

// Sizes the gate can afford: several chunks of 100 each. `npm run bench:bulk` runs the same at 2,500 posts.
const QUEUE = 450;

describe("background bulk decisions", () => {
  beforeAll(async () => {
    // Every run below is started by the test: by its own worker, or in-process, never by one running meanwhile.
    await server.worker?.stop();
  });

  it("approves every pending post exactly once, with progress visible part-way and single decisions mixed in", async () => {
    const ids = await seedQueue("crowded", QUEUE);
    const started = await post("/api/moderate/bulk-runs", {
      feedId: "crowded",
      action: "approve",
      note: "Cleared the backlog",
      filter: { q: "" },
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ total: QUEUE, state: "queued", decided: 0, action: "approve" });
    expect(started.body.message).toBe(`Deciding ${QUEUE} posts in the background.`);
    const runId = started.body.data.id as string;

    // Part-way: the first chunk is decided and committed, the rest not yet, and the progress answer says so.
    expect(await decideChunks(runId, 1)).toBe("stopped");
    const partWay = (await progress(runId, admin)).body.data;
    expect(partWay).toMatchObject({ state: "running", decided: 100, total: QUEUE });

    // Another moderator rejects some posts one by one meanwhile: early ones (decided already), late ones.
    const contested = [...ids.slice(0, 5), ...ids.slice(-40)];
    const singles = Promise.all(
      contested.map((submissionId) =>
        post("/api/moderate", { feedId: "crowded", submissionId, action: "reject" }, admin),
      ),
    );
    const worker = await startOwnWorker();
    let finished: Record<string, unknown>;
    try {
      finished = (
        await until(
          () => progress(runId, admin),
          (answer) => answer.body.data.state === "completed",
        )
      ).body.data;
    } finally {
      await worker.stop();
    }
    const singleAnswers = await singles;
    const rejectedFirst = singleAnswers.filter((answer) => answer.status === 200).length;
    for (const answer of singleAnswers) expect([200, 409]).toContain(answer.status);

    expect(finished).toMatchObject({
      total: QUEUE,
      decided: QUEUE - rejectedFirst,
      alreadyDecided: rejectedFirst,
      failed: 0,
      undoMissed: false,
    });
    // Finished inside the window: undo is offered until the first approval's window closes.
    expect(Date.parse(finished.undoUntil as string)).toBeGreaterThan(
      Date.parse(finished.finishedAt as string),
    );

    const rows = await decisionsOf("crowded");
    expect(rows).toHaveLength(QUEUE);
    expect(rows.every((row) => row.decisions === 1)).toBe(true);
    expect(rows.filter((row) => row.status === "approved")).toHaveLength(QUEUE - rejectedFirst);
    const [counts] = await queryRows<{ jobs: number; history: number; notes: number }>(
      server.db,
      sql`select (select count(*)::int from processing_jobs where feed_id = 'crowded') as jobs,
        (select count(*)::int from moderation_history where feed_id = 'crowded' and action = 'approve') as history,
        (select count(*)::int from moderation_history where feed_id = 'crowded'
          and note = 'Cleared the backlog') as notes`,
    );
    expect(counts).toEqual({
      jobs: QUEUE - rejectedFirst,
      history: QUEUE - rejectedFirst,
      notes: QUEUE - rejectedFirst,
    });

    const listed = await get("/api/moderate/bulk-runs?feedId=crowded&limit=1");
    expect(listed.body.data.items.map((run: { id: string }) => run.id)).toEqual([runId]);
    expect(listed.body.data.pagination).toMatchObject({
      page: 0,
      limit: 1,
      totalCount: 1,
      hasNextPage: false,
    });
  }, 300_000);

  it("resumes after a worker stopped between chunks where it stopped, deciding nothing twice", async () => {
    const ids = await seedQueue("restart", QUEUE);
    const started = await post("/api/moderate/bulk-runs", { feedId: "restart", action: "reject" });
    expect(started.status).toBe(202);
    const runId = started.body.data.id as string;
    // No worker is up: the run waits in the outbox, and the feed takes no second one meanwhile.
    const second = await post("/api/moderate/bulk-runs", { feedId: "restart", action: "approve" }, admin);
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe(
      'A bulk decision is already running in "restart": wait for it to finish before starting another.',
    );

    // A worker decides three chunks and is stopped: it hands the run back between chunks.
    expect(await decideChunks(runId, 3)).toBe("stopped");
    const stopped = (await progress(runId)).body.data;
    expect(stopped).toMatchObject({ state: "running", decided: 300 });

    const worker = await startOwnWorker();
    try {
      const finished = await until(
        () => progress(runId),
        (answer) => answer.body.data.state === "completed",
      );
      expect(finished.body.data).toMatchObject({
        total: QUEUE,
        decided: QUEUE,
        alreadyDecided: 0,
        failed: 0,
      });
    } finally {
      await worker.stop();
    }
    const rows = await decisionsOf("restart");
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((row) => row.decisions === 1 && row.status === "rejected")).toBe(true);
    const [items] = await queryRows<{ open: number }>(
      server.db,
      sql`select count(*)::int as open from bulk_run_items where run_id = ${runId} and outcome is null`,
    );
    expect(items.open).toBe(0);
  });

  it("offers undo only when the whole run finished inside the undo window, and says so otherwise", async () => {
    // No worker here: the run is decided in-process, as the worker would.
    const ids = await seedQueue("undoable", 150);
    const started = await post("/api/moderate/bulk-runs", {
      feedId: "undoable",
      action: "approve",
      filter: { q: "Queued post", platform: "twitter" },
    });
    expect(started.body.data).toMatchObject({ query: "Queued post", platform: "twitter", total: 150 });
    const runId = started.body.data.id as string;
    const early = await post(`/api/moderate/bulk-runs/${runId}/undo`, {});
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe(
      "This bulk decision is still running: undo is offered once it has finished.",
    );
    expect(await runBulkRun(server.db, runId)).toBe("finished");
    const done = (await progress(runId)).body.data;
    expect(done.decided).toBe(150);
    expect(Date.parse(done.undoUntil)).toBeGreaterThan(Date.now() + 500_000);

    const undone = await post(`/api/moderate/bulk-runs/${runId}/undo`, {}, admin);
    expect(undone.status).toBe(200);
    expect(undone.body.data).toMatchObject({ undone: 150, notUndone: 0 });
    expect(undone.body.data.run).toMatchObject({ undone: 150, undoUntil: null });
    expect(undone.body.message).toBe("150 approvals undone.");
    const rows = await decisionsOf("undoable");
    expect(rows.filter((row) => row.status === "pending")).toHaveLength(ids.length);
    const [jobs] = await queryRows<{ cancelled: number }>(
      server.db,
      sql`select count(*)::int as cancelled from processing_jobs where feed_id = 'undoable' and status = 'cancelled'`,
    );
    expect(jobs.cancelled).toBe(150);
    const twice = await post(`/api/moderate/bulk-runs/${runId}/undo`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe("This bulk decision was already undone.");

    // A run that outlasted its first approvals' window: no undo, and the run says why.
    const slow = await post("/api/moderate/bulk-runs", { feedId: "undoable", action: "approve" });
    const slowId = slow.body.data.id as string;
    await runBulkRun(server.db, slowId);
    await server.db.execute(
      sql`update bulk_runs set finished_at = first_undo_until + interval '1 second' where id = ${slowId}`,
    );
    const missed = (await progress(slowId)).body.data;
    expect(missed).toMatchObject({ undoMissed: true, undoUntil: null, state: "completed" });
    const refused = await post(`/api/moderate/bulk-runs/${slowId}/undo`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      "Undo is not offered: this bulk decision took longer than the feed's undo window, so its first approvals are already being published.",
    );
  });

  it("is for the feed's moderators only, and refuses what it cannot take", async () => {
    await seedQueue("lonely", 3);
    const anonymous = await call("/api/moderate/bulk-runs", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.baseUrl },
      body: JSON.stringify({ feedId: "lonely", action: "approve" }),
    });
    expect(anonymous.status).toBe(401);
    expect(
      (await post("/api/moderate/bulk-runs", { feedId: "lonely", action: "approve" }, stranger)).status,
    ).toBe(403);
    expect((await post("/api/moderate/bulk-runs", { feedId: "nosuchfeed", action: "approve" })).status).toBe(
      404,
    );
    const nothing = await post("/api/moderate/bulk-runs", {
      feedId: "lonely",
      action: "approve",
      filter: { q: "no post says this" },
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toBe("No pending posts match: there is nothing to decide.");
    for (const bad of [
      { feedId: "lonely", action: "maybe" },
      { feedId: "lonely", action: "approve", filter: { status: "approved" } },
      { feedId: "lonely", action: "approve", note: "x".repeat(2001) },
    ]) {
      const answer = await post("/api/moderate/bulk-runs", bad);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("VALIDATION_ERROR");
    }
    const started = await post("/api/moderate/bulk-runs", { feedId: "lonely", action: "approve" });
    const runId = started.body.data.id as string;
    expect((await progress(runId, stranger)).status).toBe(403);
    expect((await progress("no-such-run")).status).toBe(404);
    expect((await get("/api/moderate/bulk-runs?feedId=lonely", stranger)).status).toBe(403);
    expect((await get("/api/moderate/bulk-runs?feedId=lonely&limit=101")).status).toBe(400);
    expect((await post(`/api/moderate/bulk-runs/${runId}/undo`, {}, stranger)).status).toBe(403);
  });

  it("queues again a run whose queue job was lost, and it finishes", async () => {
    await seedQueue("stale", 120);
    const started = await post("/api/moderate/bulk-runs", { feedId: "stale", action: "reject" });
    const runId = started.body.data.id as string;
    // As if its job had been relayed long ago and then lost with its last worker: no job, untouched for 20 minutes.
    await server.db.execute(
      sql`update bulk_runs set queued_at = now() - interval '20 minutes', updated_at = now() - interval '20 minutes'
        where id = ${runId}`,
    );
    const worker = await startOwnWorker();
    try {
      const finished = await until(
        () => progress(runId),
        (answer) => answer.body.data.state === "completed",
      );
      expect(finished.body.data).toMatchObject({ decided: 120, alreadyDecided: 0 });
    } finally {
      await worker.stop();
    }
    const rows = await decisionsOf("stale");
    expect(rows.every((row) => row.decisions === 1 && row.status === "rejected")).toBe(true);
  });
});
