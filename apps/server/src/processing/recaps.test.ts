import { parseFeed } from "@rowanmanning/feed-parser";
import { and, eq, sql } from "drizzle-orm";
import Parser from "rss-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { moderationHistory, processingJobs } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { startWorker } from "../worker/host.ts";

const SECRET = "recap-hook-secret";
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const moderatorKey = newKey();
let moderator: string;
let stranger: string;
/** The recap scheduler's clock: the tests move it. */
let now = new Date("2026-11-18T12:00:00Z");
const clock = () => now;
const feedSecrets = async (): Promise<Record<string, string>> => ({ HOOK_SECRET: SECRET });

function recapFeed(id: string, recap: Record<string, unknown>) {
  return insertFeed(server.db, {
    id,
    createdBy: moderatorKey.implicitAccountId,
    config: {
      id,
      name: id,
      description: `About ${id}`,
      outputs: {
        stream: { enabled: false },
        recap: {
          id: "digest",
          name: `${id} digest`,
          enabled: true,
          transform: [{ plugin: "@curate/simple-transform", config: { template: "- {{content}}" } }],
          batchTransform: [
            {
              plugin: "@curate/simple-transform",
              config: { template: '# {{recapName}} ({{count}})\n{{items | join:"\n"}}' },
            },
          ],
          distribute: [
            {
              plugin: "@curate/webhook",
              config: { url: receiver.url, secret: "{{HOOK_SECRET}}", event: "recap.published" },
            },
          ],
          ...recap,
        },
      },
    },
  });
}

/** An approved post of `feedId` whose approval is dated `approvedAt`. */
async function approvedAt(feedId: string, content: string, at: string) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId, status: "approved" }] });
  await server.db
    .update(moderationHistory)
    .set({ createdAt: new Date(at) })
    .where(and(eq(moderationHistory.submissionId, tweetId), eq(moderationHistory.feedId, feedId)));
  return tweetId;
}

async function recapJobs(feedId: string) {
  return server.db
    .select()
    .from(processingJobs)
    .where(and(eq(processingJobs.feedId, feedId), sql`${processingJobs.recapId} is not null`))
    .orderBy(processingJobs.createdAt);
}

const FINISHED = ["completed", "failed", "completed_with_errors", "cancelled"];

async function finished(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    if (job && FINISHED.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const deliveriesOf = (feedId: string) => receiver.deliveries.filter((d) => d.body.feedId === feedId);

async function tick(at: string) {
  now = new Date(at);
  return server.worker?.runRecapsNow();
}

async function post(path: string, cookie: string | null, body?: unknown) {
  return server.json(path, {
    method: "POST",
    headers: cookie
      ? sessionHeaders(server, cookie)
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  server = await startTestServer(
    { AUTH_RATE_LIMIT_PER_MINUTE: "1000", PRIVATE_HOSTS_ALLOWED: "127.0.0.1", RECAP_TICK_MS: "3600000" },
    { worker: { feedSecrets, clock } },
  );
  moderator = (await signIn(server, moderatorKey)).cookie;
  stranger = (await signIn(server)).cookie;
});

afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe("a weekly recap on a fake clock", () => {
  it("posts one digest of the week's approvals through the channel, then waits for the next week", async () => {
    // Mondays 09:00 in Berlin (08:00 UTC in winter).
    await recapFeed("weekly", { schedule: "0 9 * * 1", timezone: "Europe/Berlin" });
    // First sight: the cursor starts at the latest scheduled time (Monday 16 Nov, 08:00 UTC); nothing runs yet.
    expect(await tick("2026-11-18T12:00:00Z")).toBe(0);
    await approvedAt("weekly", "Before the period", "2026-11-16T07:59:59Z");
    await approvedAt("weekly", "First of the week", "2026-11-16T08:00:00Z");
    await approvedAt("weekly", "Sunday night", "2026-11-22T22:30:00Z");
    await approvedAt("weekly", "After the slot", "2026-11-23T08:00:00Z");
    await insertSubmission(server.db, { content: "Still pending", feeds: [{ feedId: "weekly" }] });
    await insertSubmission(server.db, {
      content: "Rejected",
      feeds: [{ feedId: "weekly", status: "rejected" }],
    });

    expect(await tick("2026-11-23T07:59:00Z")).toBe(0);
    expect(await tick("2026-11-23T08:00:20Z")).toBe(1);
    expect(await tick("2026-11-23T08:01:00Z")).toBe(0);
    const [job] = await recapJobs("weekly");
    expect(job).toMatchObject({
      kind: "recap",
      recapId: "digest",
      submissionId: null,
      periodStart: new Date("2026-11-16T08:00:00Z"),
      periodEnd: new Date("2026-11-23T08:00:00Z"),
    });
    expect((await finished(job.id)).status).toBe("completed");

    const deliveries = deliveriesOf("weekly");
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].event).toBe("recap.published");
    expect(deliveries[0].body.data).toBe("# weekly digest (2)\n- First of the week\n- Sunday night");

    // The steps: the per-item transform, the batch transform over the list, then the distribution.
    const { status, body } = await server.json(`/api/processing/jobs/${job.id}/steps`, {
      headers: sessionHeaders(server, moderator),
    });
    expect(status).toBe(200);
    const steps = body.data.steps as Array<Record<string, unknown>>;
    expect(steps.map((s) => [s.type, s.stage, s.pluginName, s.status])).toEqual([
      ["transformation", "global", "@curate/simple-transform", "success"],
      ["transformation", "batch", "@curate/simple-transform", "success"],
      ["distribution", "distributor", "@curate/webhook", "success"],
    ]);
    expect(steps[0].input).toMatchObject({
      recapId: "digest",
      count: 2,
      items: [{ content: "First of the week" }, {}],
    });
    expect(steps[1].input).toMatchObject({ items: ["- First of the week", "- Sunday night"] });

    // The next Monday's run covers what came after the slot, and nothing twice.
    expect(await tick("2026-11-30T08:00:01Z")).toBe(1);
    const second = (await recapJobs("weekly"))[1];
    await finished(second.id);
    expect(deliveriesOf("weekly").map((d) => d.body.data)).toEqual([
      "# weekly digest (2)\n- First of the week\n- Sunday night",
      "# weekly digest (1)\n- After the slot",
    ]);

    // The processing tab lists the runs, newest first, and the recap with its schedule in words.
    const runs = await server.json("/api/processing/feeds/weekly/recap-runs?limit=1", {
      headers: sessionHeaders(server, moderator),
    });
    expect(runs.status).toBe(200);
    expect(runs.body.data.items.map((r: { id: string }) => r.id)).toEqual([second.id]);
    expect(runs.body.data.pagination).toMatchObject({ page: 0, limit: 1, hasNextPage: true, totalCount: 2 });
    const recaps = await server.json("/api/processing/feeds/weekly/recaps", {
      headers: sessionHeaders(server, moderator),
    });
    expect(recaps.body.data.recaps).toEqual([
      expect.objectContaining({
        id: "digest",
        name: "weekly digest",
        description: "At 09:00, only on Monday",
        timezone: "Europe/Berlin",
        coveredUntil: "2026-11-30T08:00:00.000Z",
      }),
    ]);
  });

  it("cuts the period at local midnight of the recap's timezone", async () => {
    // Daily at midnight in New York: 05:00 UTC in November.
    await recapFeed("nightly", { schedule: "0 0 * * *", timezone: "America/New_York" });
    expect(await tick("2026-11-23T06:00:00Z")).toBe(0);
    await approvedAt("nightly", "Just before midnight in New York", "2026-11-24T04:59:59Z");
    await approvedAt("nightly", "Just after midnight in New York", "2026-11-24T05:00:01Z");
    expect(await tick("2026-11-24T05:00:30Z")).toBe(1);
    const [first] = await recapJobs("nightly");
    await finished(first.id);
    expect(await tick("2026-11-25T05:00:30Z")).toBe(1);
    const [, second] = await recapJobs("nightly");
    await finished(second.id);
    expect(deliveriesOf("nightly").map((d) => d.body.data)).toEqual([
      "# nightly digest (1)\n- Just before midnight in New York",
      "# nightly digest (1)\n- Just after midnight in New York",
    ]);
  });

  it("makes no post for an empty period, and says so on the job", async () => {
    await recapFeed("quietweek", { schedule: "0 9 * * 1", timezone: "UTC" });
    expect(await tick("2026-11-18T12:00:00Z")).toBe(0);
    expect(await tick("2026-11-23T09:00:00Z")).toBe(1);
    const [job] = await recapJobs("quietweek");
    const done = await finished(job.id);
    expect(done.status).toBe("completed");
    expect(done.note).toBe(
      "No items were approved in this period (2026-11-16T09:00:00.000Z – 2026-11-23T09:00:00.000Z): nothing was posted.",
    );
    expect(deliveriesOf("quietweek")).toHaveLength(0);
  });
});

describe("several workers", () => {
  it("make one run of a scheduled recap however many look at once", async () => {
    await recapFeed("shared", { schedule: "0 9 * * 1", timezone: "UTC" });
    const logger = createLogger("silent");
    const others = await Promise.all(
      [1, 2].map(() =>
        startWorker({
          database: server.database,
          env: server.env,
          intake: server.intake,
          telemetry: server.telemetry,
          logger,
          feedSecrets,
          clock,
        }),
      ),
    );
    try {
      now = new Date("2026-11-18T12:00:00Z");
      await Promise.all(others.map((w) => w.runRecapsNow()));
      await approvedAt("shared", "Shared news", "2026-11-20T10:00:00Z");
      now = new Date("2026-11-23T09:00:10Z");
      const made = await Promise.all([server.worker?.runRecapsNow(), ...others.map((w) => w.runRecapsNow())]);
      expect(made.reduce((sum: number, n) => sum + (n ?? 0), 0)).toBe(1);
      const jobs = await recapJobs("shared");
      expect(jobs).toHaveLength(1);
      await finished(jobs[0].id);
      expect(deliveriesOf("shared").map((d) => d.body.data)).toEqual(["# shared digest (1)\n- Shared news"]);
    } finally {
      await Promise.all(others.map((w) => w.stop()));
    }
  });
});

describe("Run now", () => {
  it("runs a recap over the approvals since its last run, for moderators only", async () => {
    await recapFeed("manual", { schedule: "0 9 * * 1", timezone: "UTC" });
    await insertSubmission(server.db, {
      content: "Approved today",
      feeds: [{ feedId: "manual", status: "approved" }],
    });
    const path = "/api/processing/feeds/manual/recaps/digest/run";
    expect((await post(path, null)).status).toBe(401);
    const refused = await post(path, stranger);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
    expect((await post("/api/processing/feeds/manual/recaps/nope/run", moderator)).status).toBe(404);

    const { status, body } = await post(path, moderator);
    expect(status).toBe(201);
    expect(body.message).toBe("Recap run started.");
    expect(body.data.job).toMatchObject({
      kind: "recap",
      recapId: "digest",
      requestedBy: moderatorKey.implicitAccountId,
    });
    expect((await finished(body.data.job.id)).status).toBe("completed");
    expect(deliveriesOf("manual").map((d) => d.body.data)).toEqual(["# manual digest (1)\n- Approved today"]);

    // The cursor moved: a second run now has nothing new, and says so.
    const again = await post(path, moderator);
    expect(again.status).toBe(201);
    const empty = await finished(again.body.data.job.id);
    expect(empty.note).toMatch(/^No items were approved in this period/);
    expect(deliveriesOf("manual")).toHaveLength(1);

    // A run still waiting or running blocks another (a double click cannot post twice).
    const held = await server.db
      .update(processingJobs)
      .set({ status: "processing", leaseUntil: new Date(Date.now() + 3_600_000), queuedAt: new Date() })
      .where(eq(processingJobs.id, again.body.data.job.id))
      .returning();
    expect(held).toHaveLength(1);
    const blocked = await post(path, moderator);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toBe(
      "A run of this recap is still waiting or running; try again when it has finished.",
    );
    await server.db
      .update(processingJobs)
      .set({ status: "completed", leaseUntil: null })
      .where(eq(processingJobs.id, again.body.data.job.id));

    // Reprocess the first run: the same period with the latest config, as a new job that updates the digest the
    // receiver has (the same delivery, as item.updated) instead of delivering a second one.
    const reprocessed = await post(`/api/processing/jobs/${body.data.job.id}/reprocess`, moderator);
    expect(reprocessed.status).toBe(201);
    expect(reprocessed.body.data.job).toMatchObject({
      kind: "reprocess",
      recapId: "digest",
      periodStart: body.data.job.periodStart,
      periodEnd: body.data.job.periodEnd,
    });
    await finished(reprocessed.body.data.job.id);
    expect(deliveriesOf("manual")).toHaveLength(1);
    const [digest] = deliveriesOf("manual");
    expect(receiver.updates.filter((d) => d.body.feedId === "manual")).toEqual([
      expect.objectContaining({ id: digest.id, event: "item.updated" }),
    ]);
  });
});

describe("a recap run that fails to publish", () => {
  it("is retried like any job: the failed distribution again, with the digest it had", async () => {
    await recapFeed("retried", { schedule: "0 9 * * 1", timezone: "UTC" });
    await insertSubmission(server.db, {
      content: "Worth a retry",
      feeds: [{ feedId: "retried", status: "approved" }],
    });
    // The receiver has no such endpoint at first: a failure that waiting cannot fix.
    receiver.answerNext({ status: 404, body: "gone" });
    const { body } = await post("/api/processing/feeds/retried/recaps/digest/run", moderator);
    const failed = await finished(body.data.job.id);
    expect(failed.status).toBe("completed_with_errors");
    expect(deliveriesOf("retried")).toHaveLength(0);

    const retry = await post(`/api/processing/jobs/${failed.id}/retry`, moderator);
    expect(retry.status).toBe(201);
    expect(retry.body.data.job).toMatchObject({ kind: "retry", recapId: "digest", retryOfJobId: failed.id });
    expect((await finished(retry.body.data.job.id)).status).toBe("completed");
    expect(deliveriesOf("retried").map((d) => d.body.data)).toEqual([
      "# retried digest (1)\n- Worth a retry",
    ]);
    // Only the distribution ran again: the transforms' outputs were reused from the stored input.
    const steps = await server.json(`/api/processing/jobs/${retry.body.data.job.id}/steps`, {
      headers: sessionHeaders(server, moderator),
    });
    expect(steps.body.data.steps.map((s: { pluginName: string }) => s.pluginName)).toEqual([
      "@curate/webhook",
    ]);
  });
});

describe("a recap published to this deployment's RSS", () => {
  it("is read at the feed's RSS addresses, though the feed's stream has no RSS output", async () => {
    await recapFeed("digestrss", {
      schedule: "0 9 * * 1",
      timezone: "UTC",
      distribute: [{ plugin: "@curate/rss" }],
    });
    await insertSubmission(server.db, {
      content: "Solar & wind <3",
      feeds: [{ feedId: "digestrss", status: "approved" }],
    });
    const { body } = await post("/api/processing/feeds/digestrss/recaps/digest/run", moderator);
    expect((await finished(body.data.job.id)).status).toBe("completed");
    const steps = await server.json(`/api/processing/jobs/${body.data.job.id}/steps`, {
      headers: sessionHeaders(server, moderator),
    });
    const distribution = steps.body.data.steps.find((s: { type: string }) => s.type === "distribution");
    const link = new URL(distribution.output.reference.url);
    expect(link.href).toBe(`${server.env.PUBLIC_URL.replace(/\/+$/, "")}/rss/digestrss/rss.xml`);

    // The link the run recorded answers, with the digest in it, as every reader reads it.
    const rss = await server.request(link.pathname);
    expect(rss.status).toBe(200);
    const text = await rss.text();
    const read = await new Parser().parseString(text);
    expect(read.items.map((entry) => [entry.title, entry.contentSnippet])).toEqual([
      ["# digestrss digest (1)", "# digestrss digest (1)\n- Solar & wind <3"],
    ]);
    expect(parseFeed(text).items.map((entry) => entry.title)).toEqual(["# digestrss digest (1)"]);
    const atom = await server.request("/rss/digestrss/atom.xml");
    expect(parseFeed(await atom.text()).items.map((entry) => entry.title)).toEqual([
      "# digestrss digest (1)",
    ]);
    const json = await server.json("/rss/digestrss/feed.json");
    expect(json.body.items.map((entry: { title: string }) => entry.title)).toEqual([
      "# digestrss digest (1)",
    ]);
    // And the directory offers it to new readers.
    expect(await (await server.request("/rss/opml.xml")).text()).toContain("/rss/digestrss/rss.xml");
  });
});

describe("saving a recap", () => {
  it("refuses an invalid schedule or timezone with a 400 naming the field", async () => {
    await insertFeed(server.db, { id: "editing", createdBy: moderatorKey.implicitAccountId });
    const put = (recap: unknown) =>
      server.json("/api/feeds/editing", {
        method: "PUT",
        headers: sessionHeaders(server, moderator),
        body: JSON.stringify({ id: "editing", name: "Editing", description: "A feed", outputs: { recap } }),
      });
    const badCron = await put([{ id: "weekly", schedule: "every monday", timezone: "UTC" }]);
    expect(badCron.status).toBe(400);
    expect(badCron.body.error.code).toBe("VALIDATION_ERROR");
    expect(badCron.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: "outputs.recap.0.schedule",
          message: expect.stringMatching(/^Not a valid cron schedule/),
        }),
      ]),
    );
    const badZone = await put({ id: "weekly", schedule: "0 9 * * 1", timezone: "Europe/Atlantis" });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "outputs.recap.timezone" })]),
    );
    const good = await put([{ id: "weekly", schedule: "0 9 * * 1", timezone: "Europe/Berlin" }]);
    expect(good.status).toBe(200);
  });
});
