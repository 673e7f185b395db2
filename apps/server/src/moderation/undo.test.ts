import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { moderationHistory, processingJobs, submissionFeeds } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { createLogger } from "../logger.ts";
import { startWorker } from "../worker/host.ts";

/** The undo window: an approval waits `moderation.undoWindowSeconds` before anything runs, and can be taken back. */
const SECRET = "whsec_undo";
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const ownerKey = newKey();
let owner: string;

function config(id: string, undoWindowSeconds?: number) {
  return {
    id,
    name: id,
    description: `About ${id}`,
    moderation: undoWindowSeconds === undefined ? {} : { undoWindowSeconds },
    outputs: {
      stream: {
        enabled: true,
        distribute: [{ plugin: "@curate/webhook", config: { url: receiver.url, secret: "{{HOOK_SECRET}}" } }],
      },
    },
  };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    { worker: {} },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  for (const [id, window] of [
    ["window", 2],
    ["instant", undefined],
    ["history", 300],
  ] as const) {
    await insertFeed(server.db, { id, createdBy: ownerKey.implicitAccountId, config: config(id, window) });
    const stored = await server.json(`/api/feeds/${id}/secrets/HOOK_SECRET`, {
      method: "PUT",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ value: SECRET }),
    });
    expect(stored.status).toBe(200);
  }
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const post = (path: string, body: unknown) =>
  server.json(path, { method: "POST", headers: sessionHeaders(server, owner), body: JSON.stringify(body) });

async function jobOf(jobId: string) {
  const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
  return job;
}

async function finished(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobOf(jobId);
    if (job && ["completed", "failed", "completed_with_errors"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const deliveriesFor = (submissionId: string) =>
  receiver.deliveries.filter((delivery) => delivery.body?.submissionId === submissionId);

describe("undos in the history and the processing tab", () => {
  const history = async (tweetId: string) => {
    const page = await server.json(`/api/submissions/single/${tweetId}`);
    expect(page.status).toBe(200);
    return page.body.data.moderationHistory as Array<Record<string, unknown>>;
  };

  it("lists approve, undo, approve as three entries in order, and the row shows the standing approval's job", async () => {
    const { tweetId } = await insertSubmission(server.db, { feeds: [{ feedId: "history" }] });
    const approve = { submissionId: tweetId, feedId: "history", action: "approve" };
    const first = await post("/api/moderate", approve);
    expect(first.status).toBe(200);
    expect((await post("/api/moderate/undo", { feedId: "history", submissionId: tweetId })).status).toBe(200);
    const again = await post("/api/moderate", approve);
    expect(again.status).toBe(200);

    const entries = await history(tweetId);
    const me = ownerKey.implicitAccountId;
    expect(
      entries.map((entry) => [entry.action, entry.moderatorAccountId, entry.source, entry.feedId]),
    ).toEqual([
      ["approve", me, "ui", "history"],
      ["undo", me, "ui", "history"],
      ["approve", me, "ui", "history"],
    ]);
    const firstId = first.body.data.moderation.id;
    expect(entries[1]).toMatchObject({
      id: firstId,
      undoes: firstId,
      moderatorAccountIdType: "near",
      note: null,
    });
    const [record] = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.id, firstId));
    const times = entries.map((entry) => Date.parse(entry.createdAt as string));
    expect(Math.abs(times[1] - (record.undoneAt as Date).getTime())).toBeLessThanOrEqual(1);
    expect(times[0]).toBeLessThanOrEqual(times[1]);
    expect(times[1]).toBeLessThanOrEqual(times[2]);

    // The second approval's window closes (moved to now rather than waited for): its job publishes.
    const jobId = again.body.data.processingJobId as string;
    await server.db.update(processingJobs).set({ notBefore: sql`now()` }).where(eq(processingJobs.id, jobId));
    expect((await finished(jobId)).status).toBe("completed");
    expect((await jobOf(first.body.data.processingJobId)).status).toBe("cancelled");
    const rows = await server.json("/api/processing/feeds/history/submissions?limit=100", {
      headers: sessionHeaders(server, owner),
    });
    const row = rows.body.data.items.find((item: { submissionId: string }) => item.submissionId === tweetId);
    expect(row.latestJob).toMatchObject({ id: jobId, status: "completed" });
  });

  it("lists the undo of an approval undone before undos were listed, from the columns it was stored in", async () => {
    const { tweetId } = await insertSubmission(server.db, { feeds: [{ feedId: "history" }] });
    // As the undo stored it then: the approval row marked undone, the link pending again, the job cancelled.
    const undoneAt = new Date(Date.UTC(2026, 10, 20, 12, 5));
    const [approval] = await server.db
      .insert(moderationHistory)
      .values({
        submissionId: tweetId,
        feedId: "history",
        moderatorAccountId: "amy.near",
        moderatorAccountIdType: "near",
        source: "ui",
        action: "approve",
        note: "good one",
        createdAt: new Date(Date.UTC(2026, 10, 20, 12, 4)),
        undoneAt,
        undoneBy: "ben.near",
      })
      .returning();

    expect(await history(tweetId)).toEqual([
      expect.objectContaining({
        id: approval.id,
        action: "approve",
        moderatorAccountId: "amy.near",
        note: "good one",
        createdAt: "2026-11-20T12:04:00.000Z",
      }),
      expect.objectContaining({
        id: approval.id,
        undoes: approval.id,
        action: "undo",
        moderatorAccountId: "ben.near",
        moderatorAccountIdType: "near",
        source: "ui",
        note: null,
        createdAt: "2026-11-20T12:05:00.000Z",
      }),
    ]);
  });
});

describe("the undo window", () => {
  it("takes an approval back before anything is published, and a later approval publishes after the window", async () => {
    // A window of five minutes, closed by the test (moved to now) rather than waited for: how busy the machine is
    // never decides whether the undo came in time.
    const { tweetId } = await insertSubmission(server.db, { feeds: [{ feedId: "history" }] });
    const sent = Date.now();
    const approved = await post("/api/moderate", {
      submissionId: tweetId,
      feedId: "history",
      action: "approve",
    });
    const received = Date.now();
    expect(approved.status).toBe(200);
    const undoUntil = Date.parse(approved.body.data.undoUntil);
    expect(undoUntil).toBeGreaterThanOrEqual(sent + 300_000 - 1000);
    expect(undoUntil).toBeLessThanOrEqual(received + 300_000 + 1000);
    const held = await jobOf(approved.body.data.processingJobId);
    expect(held).toMatchObject({ status: "pending", startedAt: null });
    expect((held.notBefore as Date).getTime()).toBe(undoUntil);

    const undone = await post("/api/moderate/undo", { feedId: "history", submissionId: tweetId });
    expect(undone).toMatchObject({ status: 200, body: { message: "1 approval undone." } });
    expect(undone.body.data.results).toEqual([{ submissionId: tweetId, outcome: "undone" }]);
    const cancelled = await jobOf(approved.body.data.processingJobId);
    expect(cancelled.status).toBe("cancelled");
    const [link] = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.submissionId, tweetId));
    expect(link.status).toBe("pending");
    const [record] = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, tweetId));
    expect(record.undoneBy).toBe(ownerKey.implicitAccountId);
    expect(record.undoneAt).not.toBeNull();

    // Approved again: a new job, held for the window. Both windows close; only the standing approval publishes.
    const again = await post("/api/moderate", {
      submissionId: tweetId,
      feedId: "history",
      action: "approve",
    });
    expect(again.status).toBe(200);
    expect(again.body.data.processingJobId).not.toBe(cancelled.id);
    expect(await jobOf(again.body.data.processingJobId)).toMatchObject({
      status: "pending",
      startedAt: null,
    });
    const [closed] = await server.db
      .update(processingJobs)
      .set({ notBefore: sql`now()` })
      .where(sql`${processingJobs.id} in (${cancelled.id}, ${again.body.data.processingJobId})`)
      .returning({ notBefore: processingJobs.notBefore });
    const published = await finished(again.body.data.processingJobId);
    expect(published.status).toBe("completed");
    expect((published.startedAt as Date).getTime()).toBeGreaterThanOrEqual(
      (closed.notBefore as Date).getTime(),
    );
    expect(deliveriesFor(tweetId)).toHaveLength(1);
    expect((await jobOf(cancelled.id)).status).toBe("cancelled");

    const late = await post("/api/moderate/undo", { feedId: "history", submissionId: tweetId });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe(
      "Too late to undo: the undo window has closed and this approval is being published.",
    );
  });

  it("publishes at once without a window, and then there is nothing to take back", async () => {
    const { tweetId } = await insertSubmission(server.db, { feeds: [{ feedId: "instant" }] });
    const approved = await post("/api/moderate", {
      submissionId: tweetId,
      feedId: "instant",
      action: "approve",
    });
    expect(approved.body.data.undoUntil).toBeNull();
    expect((await post("/api/moderate/undo", { feedId: "instant", submissionId: tweetId })).status).toBe(409);
    await finished(approved.body.data.processingJobId);
    expect(deliveriesFor(tweetId)).toHaveLength(1);
  });

  it("undoes a bulk decision post by post, and the moderator's figures forget the undone approvals", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      ids.push((await insertSubmission(server.db, { feeds: [{ feedId: "history" }] })).tweetId);
    }
    const countOf = async () =>
      (
        await queryRows<{ n: number }>(
          server.db,
          sql`select coalesce(sum(approval_count), 0)::int as n from moderator_stats
            where moderator_account_id = ${ownerKey.implicitAccountId}`,
        )
      )[0].n;
    const before = await countOf();
    const bulk = await post("/api/moderate/bulk", {
      feedId: "history",
      action: "approve",
      submissionIds: ids,
    });
    expect(bulk.body.data.decided).toBe(3);
    expect(await countOf()).toBe(before + 3);

    const undone = await post("/api/moderate/undo", {
      feedId: "history",
      submissionIds: [...ids, "nosuchpost"],
    });
    expect(undone.status).toBe(200);
    expect(undone.body.data).toMatchObject({ undone: 3 });
    expect(undone.body.data.results.at(-1)).toEqual({ submissionId: "nosuchpost", outcome: "not_approved" });
    expect(await countOf()).toBe(before);
    const jobs = await queryRows<{ status: string }>(
      server.db,
      sql`select status from processing_jobs where submission_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    expect(jobs.map((job) => job.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    for (const id of ids) expect(deliveriesFor(id)).toEqual([]);
  });

  it("holds the window across a worker restart: a new worker publishes only once the window has closed", async () => {
    const { tweetId } = await insertSubmission(server.db, { feeds: [{ feedId: "window" }] });
    await server.worker?.stop();
    const approved = await post("/api/moderate", {
      submissionId: tweetId,
      feedId: "window",
      action: "approve",
    });
    const jobId = approved.body.data.processingJobId as string;
    const undoUntil = Date.parse(approved.body.data.undoUntil);
    const replacement = await startWorker({
      database: server.database,
      env: server.env,
      intake: server.intake,
      telemetry: server.telemetry,
      logger: createLogger("silent"),
    });
    try {
      const job = await finished(jobId);
      expect(job.status).toBe("completed");
      expect((job.startedAt as Date).getTime()).toBeGreaterThanOrEqual(undoUntil - 50);
      expect(deliveriesFor(tweetId)).toHaveLength(1);
    } finally {
      await replacement.stop();
    }
  });

  it("is for the feed's moderators, and refuses a window outside its bounds in the feed's config", async () => {
    const { cookie: stranger } = await signIn(server);
    const refused = await server.json("/api/moderate/undo", {
      method: "POST",
      headers: sessionHeaders(server, stranger),
      body: JSON.stringify({ feedId: "window", submissionId: "x" }),
    });
    expect(refused.status).toBe(403);
    const tooLong = await post("/api/feeds", { ...config("toolong", 601), id: "toolong" });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body.error)).toContain(
      "The undo window is a whole number of seconds from 0 to 600",
    );
  });
});
