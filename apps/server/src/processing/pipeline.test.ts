import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { failingTransform, recordingDistributor } from "../../test/plugins.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { moderationHistory, processingJobs, processingSteps, rssItems } from "../db/schema.ts";
import { submissionInput } from "./input.ts";

let server: TestServer;
const recorder = recordingDistributor();
const moderatorKey = newKey();
let moderator: string;
let stranger: string;

const mapping = {
  plugin: "@curate/object-transform",
  config: { mappings: { title: "{{content | truncate:40}}", author: "{{username}}", link: "{{url}}" } },
};

function streamConfig(id: string, stream: Record<string, unknown>) {
  return { id, name: id, description: `About ${id}`, outputs: { stream: { enabled: true, ...stream } } };
}

beforeAll(async () => {
  server = await startTestServer(
    { AUTH_RATE_LIMIT_PER_MINUTE: "1000", PROCESSING_MAX_ATTEMPTS: "3" },
    { worker: { extraPlugins: [recorder.plugin, failingTransform] } },
  );
  moderator = (await signIn(server, moderatorKey)).cookie;
  stranger = (await signIn(server)).cookie;
  const feed = (id: string, stream: Record<string, unknown>) =>
    insertFeed(server.db, {
      id,
      createdBy: moderatorKey.implicitAccountId,
      config: streamConfig(id, stream),
    });
  await feed("happy", {
    transform: [mapping],
    distribute: [
      {
        plugin: "@curatedotfun/rss",
        transform: [
          { plugin: "@curate/object-transform", config: { mappings: { description: "by {{author}}" } } },
        ],
      },
      { plugin: "@test/recorder", config: { channel: "news" } },
    ],
  });
  await feed("branches", {
    transform: [mapping],
    distribute: [{ plugin: "@curate/rss" }, { plugin: "@test/recorder" }],
  });
  await feed("broken", {
    transform: [mapping, { plugin: "@test/fail", config: { reason: "Broken on purpose." } }],
    distribute: [{ plugin: "@test/recorder" }],
  });
  await feed("secret", {
    transform: [
      { plugin: "@curate/ai-transform", config: { prompt: "Summarise", apiKey: "{{NO_SUCH_KEY_SET}}" } },
    ],
    distribute: [{ plugin: "@test/recorder" }],
  });
  await feed("places", {
    transform: [
      {
        plugin: "@curate/object-transform",
        config: {
          mappings: {
            title: "{{curatorHandle}} found {{username}} on {{network}}",
            authorLink: "{{authorUrl}}",
            approvedBy: "{{approverHandle}}",
          },
        },
      },
    ],
    distribute: [{ plugin: "@test/recorder" }],
  });
  await feed("unknown", { distribute: [{ plugin: "@someone/missing" }] });
  await feed("quiet", { enabled: false, distribute: [{ plugin: "@test/recorder" }] });
});

afterAll(() => server.close());
beforeEach(() => recorder.reset());

async function post(path: string, cookie: string | null, body?: unknown) {
  return server.json(path, {
    method: "POST",
    headers: cookie
      ? sessionHeaders(server, cookie)
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function approve(feedId: string, content = `A post for ${feedId}`) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status, body } = await post("/api/moderate", moderator, {
    submissionId: tweetId,
    feedId,
    action: "approve",
  });
  expect(status).toBe(200);
  return { tweetId, jobId: body.data.processingJobId as string };
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

async function stepsOf(jobId: string) {
  const { status, body } = await server.json(`/api/processing/jobs/${jobId}/steps`, {
    headers: sessionHeaders(server, moderator),
  });
  expect(status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: step bodies are checked by assertions, not types
  return body.data.steps as Array<Record<string, any>>;
}

describe("an approval runs the feed's pipeline", () => {
  it("runs the global transforms, then each distributor branch, and records every step", async () => {
    const { tweetId, jobId } = await approve("happy", "Solar panels got cheaper again this year, by a lot");
    const job = await finished(jobId);
    expect(job.status).toBe("completed");
    const steps = await stepsOf(jobId);
    expect(steps.map((s) => [s.stepOrder, s.type, s.stage, s.pluginName, s.status])).toEqual([
      [1, "transformation", "global", "@curate/object-transform", "success"],
      [2, "transformation", "distributor", "@curate/object-transform", "success"],
      [3, "distribution", "distributor", "@curate/rss", "success"],
      [4, "distribution", "distributor", "@test/recorder", "success"],
    ]);
    // The initial input is the submission as the feed sees it; object outputs merge into the running object.
    expect(steps[0].input).toMatchObject({
      tweetId,
      content: "Solar panels got cheaper again this year, by a lot",
      url: expect.stringMatching(/\/status\//),
      feedId: "happy",
      approver: moderatorKey.implicitAccountId,
    });
    expect(steps[0].output).toEqual({
      title: "Solar panels got cheaper again this…",
      author: expect.stringMatching(/^author/),
      link: steps[0].input.url,
    });
    expect(steps[1].input).toMatchObject({ tweetId, title: "Solar panels got cheaper again this…" });
    expect(recorder.deliveries).toHaveLength(1);
    expect(recorder.deliveries[0].input).toMatchObject({ tweetId, title: steps[0].output.title });
    expect(recorder.deliveries[0].input).not.toHaveProperty("description");
    expect(recorder.deliveries[0].idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(steps[3].output).toEqual({ reference: { kind: "test-message", id: "1" } });
    const [item] = await server.db.select().from(rssItems).where(eq(rssItems.feedId, "happy"));
    expect(item).toMatchObject({ title: steps[0].output.title, description: `by ${steps[0].output.author}` });
    for (const step of steps) {
      expect(step.startedAt).toBeTruthy();
      expect(step.completedAt).toBeTruthy();
    }
  });

  it("ends completed_with_errors when one branch's distribution fails, the other branch still publishing", async () => {
    recorder.failNext(1, false, "Chat not found.");
    const { jobId } = await approve("branches");
    const job = await finished(jobId);
    expect(job.status).toBe("completed_with_errors");
    const steps = await stepsOf(jobId);
    const rss = steps.find((s) => s.pluginName === "@curate/rss");
    const test = steps.find((s) => s.pluginName === "@test/recorder");
    expect(rss?.status).toBe("success");
    expect(test).toMatchObject({
      status: "failed",
      error: { message: "Chat not found.", code: "TEST_CHANNEL", retryable: false },
    });
  });

  it("fails the job when a global transform fails, and distributes nothing", async () => {
    const { jobId } = await approve("broken");
    const job = await finished(jobId);
    expect(job.status).toBe("failed");
    const steps = await stepsOf(jobId);
    expect(steps.map((s) => [s.pluginName, s.status])).toEqual([
      ["@curate/object-transform", "success"],
      ["@test/fail", "failed"],
      ["@test/recorder", "pending"],
    ]);
    expect(steps[1].error).toEqual({ message: "Broken on purpose.", code: "TEST_FAILURE", retryable: false });
    expect(recorder.deliveries).toHaveLength(0);
  });

  it("fails a step whose placeholder has no variable, naming the variable and never its value", async () => {
    const { jobId } = await approve("secret");
    expect((await finished(jobId)).status).toBe("failed");
    const [step] = await stepsOf(jobId);
    expect(step.error.code).toBe("MISSING_SECRET");
    expect(step.error.message).toMatch(/NO_SUCH_KEY_SET/);
    expect(step.config).toMatchObject({ apiKey: "{{NO_SUCH_KEY_SET}}" });
  });

  it("fails a step naming a plugin this server does not know, with a clear error", async () => {
    const { jobId } = await approve("unknown");
    expect((await finished(jobId)).status).toBe("completed_with_errors");
    const [step] = await stepsOf(jobId);
    expect(step.error).toMatchObject({
      code: "UNKNOWN_PLUGIN",
      message: expect.stringMatching(/@someone\/missing/),
    });
  });

  it("completes with no steps, saying why, when the stream is disabled", async () => {
    const { jobId } = await approve("quiet");
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: "completed", note: expect.stringMatching(/disabled/) });
    expect(await stepsOf(jobId)).toEqual([]);
  });

  it("backs off and retries a retryable failure, without running succeeded steps again", async () => {
    recorder.failNext(1, true, "Rate limited (429).");
    const { jobId } = await approve("happy");
    const job = await finished(jobId);
    expect(job.status).toBe("completed");
    expect(job.attempts).toBe(2);
    const steps = await stepsOf(jobId);
    expect(steps.map((s) => [s.pluginName, s.attempts])).toEqual([
      ["@curate/object-transform", 1],
      ["@curate/object-transform", 1],
      ["@curate/rss", 1],
      ["@test/recorder", 2],
    ]);
    expect(recorder.deliveries).toHaveLength(1);
  });

  it("delivers once for a duplicate approval (409, one job)", async () => {
    const { tweetId, jobId } = await approve("happy");
    const again = await post("/api/moderate", moderator, {
      submissionId: tweetId,
      feedId: "happy",
      action: "approve",
    });
    expect(again.status).toBe(409);
    await finished(jobId);
    const jobs = await server.db
      .select()
      .from(processingJobs)
      .where(eq(processingJobs.submissionId, tweetId));
    expect(jobs).toHaveLength(1);
    expect(recorder.deliveries).toHaveLength(1);
  });
});

describe("templates know each post's network", () => {
  it("fills {{network}}, {{authorUrl}}, the curator's handle without its network prefix and the approver's", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      username: "mo@social.example",
      curatorUsername: "telegram:tg_cur",
      feeds: [{ feedId: "places" }],
    });
    await server.db.execute(sql`update submissions set platform = 'mastodon',
      url = 'https://social.example/@mo/113000000000000001' where tweet_id = ${tweetId}`);
    const { status, body } = await post("/api/moderate", moderator, {
      submissionId: tweetId,
      feedId: "places",
      action: "approve",
    });
    expect(status).toBe(200);
    expect((await finished(body.data.processingJobId)).status).toBe("completed");
    expect(recorder.deliveries[0].input).toMatchObject({
      title: "tg_cur found mo@social.example on Mastodon",
      authorLink: "https://social.example/@mo",
      // Approved in the app: a NEAR account is its own handle, on no network.
      approvedBy: moderatorKey.implicitAccountId,
      approverNetwork: null,
      approverProfileUrl: null,
    });
  });
});

describe("the approver in a template", () => {
  it("is the handle on their network, with its profile, for an approval by reply", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      feeds: [{ feedId: "places", status: "approved" }],
    });
    await server.db.insert(moderationHistory).values({
      submissionId: tweetId,
      feedId: "places",
      moderatorAccountId: "mastodon:mo@social.example",
      moderatorAccountIdType: "platform_username",
      source: "auto_approval",
      action: "approve",
    });
    expect(await submissionInput(server.db, tweetId, "places")).toMatchObject({
      approver: "mastodon:mo@social.example",
      approverNetwork: "mastodon",
      approverHandle: "mo@social.example",
      approverProfileUrl: "https://social.example/@mo",
    });
  });
});

describe("retry, reprocess and tweak", () => {
  it("Retry Failed runs only the failed branch in a new linked job, with the same idempotency key", async () => {
    recorder.failNext(1, false, "Missing permission.");
    const { jobId } = await approve("branches");
    await finished(jobId);
    const firstKey = (await stepsOf(jobId)).find((s) => s.pluginName === "@test/recorder")?.idempotencyKey;
    const { status, body } = await post(`/api/processing/jobs/${jobId}/retry`, moderator);
    expect(status).toBe(201);
    expect(body.message).toBe("Job retry triggered successfully.");
    expect(body.data.job).toMatchObject({ kind: "retry", retryOfJobId: jobId, status: "pending" });
    const retry = await finished(body.data.job.id);
    expect(retry.status).toBe("completed");
    const steps = await stepsOf(retry.id);
    expect(steps.map((s) => s.pluginName)).toEqual(["@test/recorder"]);
    expect(recorder.deliveries).toHaveLength(1);
    expect(recorder.deliveries[0].idempotencyKey).toBe(firstKey);
    expect((await post(`/api/processing/jobs/${retry.id}/retry`, moderator)).status).toBe(409);
  });

  it("Retry Step runs the job from that step with its stored input", async () => {
    const { jobId } = await approve("happy");
    await finished(jobId);
    const steps = await stepsOf(jobId);
    const rssTransform = steps[1];
    const { status, body } = await post(`/api/processing/steps/${rssTransform.id}/retry`, moderator);
    expect(status).toBe(201);
    expect(body.data.job.retryOfJobId).toBe(jobId);
    await finished(body.data.job.id);
    const again = await stepsOf(body.data.job.id);
    expect(again.map((s) => s.pluginName)).toEqual(["@curate/object-transform", "@curate/rss"]);
    expect(again[0].input).toEqual(rssTransform.input);
  });

  it("Reprocess makes a new job from the latest config that edits the live publication", async () => {
    const { jobId } = await approve("happy");
    await finished(jobId);
    const first = recorder.deliveries[0];
    const { status, body } = await post(`/api/processing/jobs/${jobId}/reprocess`, moderator);
    expect(status).toBe(201);
    expect(body.message).toBe("Reprocessing job triggered successfully.");
    await finished(body.data.job.id);
    expect(recorder.deliveries).toHaveLength(2);
    // The same publication: the same key, and an edit of the first delivery rather than a second one.
    expect(recorder.deliveries[1]).toMatchObject({ idempotencyKey: first.idempotencyKey, edited: "1" });
    expect(await stepsOf(body.data.job.id)).toHaveLength(4);
  });

  it("Tweak and Reprocess runs a step with the edited input, then the rest of its branch", async () => {
    const { jobId } = await approve("happy");
    await finished(jobId);
    const recorderStep = (await stepsOf(jobId)).find((s) => s.pluginName === "@test/recorder");
    const edited = { ...recorderStep?.input, title: "A better title" };
    const { status, body } = await post(`/api/processing/steps/${recorderStep?.id}/tweak`, moderator, {
      newInput: JSON.stringify(edited),
    });
    expect(status).toBe(201);
    expect(body.data.job).toMatchObject({ kind: "tweak", retryOfJobId: jobId });
    await finished(body.data.job.id);
    expect(recorder.deliveries.at(-1)?.input).toMatchObject({ title: "A better title" });

    const bad = await post(`/api/processing/steps/${recorderStep?.id}/tweak`, moderator, {
      newInput: "{not json",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/not valid JSON/);
  });

  it("is for the feed's moderators only: 401 signed out, 403 others, 404 unknown ids", async () => {
    const { jobId, tweetId } = await approve("happy");
    await finished(jobId);
    expect((await post(`/api/processing/jobs/${jobId}/retry`, null)).status).toBe(401);
    expect((await post(`/api/processing/jobs/${jobId}/reprocess`, stranger)).status).toBe(403);
    expect((await post("/api/processing/jobs/nope/reprocess", moderator)).status).toBe(404);
    expect((await post("/api/processing/steps/nope/retry", moderator)).status).toBe(404);
    const asStranger = await server.json(`/api/processing/jobs/${tweetId}?feedId=happy`, {
      headers: sessionHeaders(server, stranger),
    });
    expect(asStranger.status).toBe(403);
    expect((await server.json(`/api/processing/jobs/${tweetId}?feedId=happy`)).status).toBe(401);
    const asModerator = await server.json(`/api/processing/jobs/${tweetId}?feedId=HAPPY`, {
      headers: sessionHeaders(server, moderator),
    });
    expect(asModerator.status).toBe(200);
    expect(asModerator.body.data.jobs).toEqual([
      expect.objectContaining({ id: jobId, kind: "approval", status: "completed" }),
    ]);
  });
});

describe("the processing tab's reads", () => {
  it("lists approved submissions with their latest job, and counts recent failures", async () => {
    const { tweetId, jobId } = await approve("broken");
    await finished(jobId);
    const page = await server.json("/api/processing/feeds/broken/submissions?limit=5", {
      headers: sessionHeaders(server, moderator),
    });
    expect(page.status).toBe(200);
    const row = page.body.data.items.find((r: { submissionId: string }) => r.submissionId === tweetId);
    expect(row).toMatchObject({ latestJob: { id: jobId, status: "failed" } });
    const failures = await server.json("/api/processing/feeds/broken/submissions?failures=recent", {
      headers: sessionHeaders(server, moderator),
    });
    expect(
      failures.body.data.items.every(
        (r: { latestJob: { status: string } }) => r.latestJob.status === "failed",
      ),
    ).toBe(true);
    const summary = await server.json("/api/processing/feeds/broken/summary", {
      headers: sessionHeaders(server, moderator),
    });
    expect(summary.body.data.failedLast24h).toBeGreaterThanOrEqual(1);
    const stepCount = await server.db.select().from(processingSteps).where(eq(processingSteps.jobId, jobId));
    expect(stepCount).toHaveLength(3);
  });
});
