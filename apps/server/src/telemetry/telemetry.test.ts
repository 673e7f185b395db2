import { currentUserSchema, operationsOverviewSchema } from "@curate/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startOtlpReceiver } from "../../test/fakes/otlp.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { eventually, readJson, startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { type Family, parsePrometheusText, seriesValue } from "../../test/prometheus-text.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { loadEnv } from "../config/env.ts";
import { processingJobs } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { startTracing } from "./tracing-sdk.ts";

const TOKEN = "metrics-token-for-tests-0123456789";
const SECRET = "a-webhook-secret-of-some-length";
const FEED = "observed";
const adminKey = newKey();
let server: TestServer;
let admin: string;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  hook = await startWebhookReceiver(SECRET);
  // The app's tracing starts as `serve` starts it, from the environment.
  server = await startTestServer(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "curate-test",
      METRICS_TOKEN: TOKEN,
      SUPER_ADMIN_ACCOUNTS: adminKey.implicitAccountId,
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
    },
    { worker: {} },
  );
  admin = (await signIn(server, adminKey)).cookie;
  await insertFeed(server.db, {
    id: FEED,
    createdBy: adminKey.implicitAccountId,
    config: {
      id: FEED,
      name: FEED,
      description: "Watched",
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            { plugin: "@curate/rss" },
            { plugin: "@curate/webhook", config: { url: hook.url, secret: "{{HOOK_SECRET}}" } },
          ],
        },
      },
    },
  });
  const stored = await server.json(`/api/feeds/${FEED}/secrets/HOOK_SECRET`, {
    method: "PUT",
    headers: sessionHeaders(server, admin),
    body: JSON.stringify({ value: SECRET }),
  });
  expect(stored.status).toBe(200);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await hook?.close();
});

/** Approves a new post of the feed over HTTP and waits for its job to finish. */
async function approvedJob(content: string) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId: FEED }] });
  const { status, body } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, admin),
    body: JSON.stringify({ submissionId: tweetId, feedId: FEED, action: "approve" }),
  });
  expect(status).toBe(200);
  const jobId = body.data.processingJobId as string;
  await eventually(async () => {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    return job?.status === "completed";
  }, `job ${jobId} completes`);
  return { tweetId, jobId };
}

const scrape = (authorization?: string) =>
  server.request("/metrics", { headers: authorization ? { Authorization: authorization } : {} });

function family(families: Family[], name: string): Family {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric family ${name}`);
  return found;
}

describe("GET /metrics", () => {
  it("answers only the holder of METRICS_TOKEN", async () => {
    for (const header of [undefined, "Bearer wrong-token-wrong-token", `Basic ${TOKEN}`]) {
      const response = await scrape(header);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect((await readJson(response)).error.code).toBe("UNAUTHENTICATED");
    }
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("is Prometheus text with bounded labels: route templates, plugins, kinds and networks", async () => {
    const { tweetId, jobId } = await approvedJob("Observability makes operators sleep better");
    expect((await server.request(`/api/feeds/${FEED}`)).status).toBe(200);
    expect((await server.request("/api/feeds/no-such-feed-here")).status).toBe(404);
    const posted = await server.json("/api/test/tweets", {
      method: "POST",
      headers: sessionHeaders(server, admin),
      body: JSON.stringify({ text: "@curatedotfun just saying hello", username: "someone" }),
    });
    expect(posted.status).toBe(201);
    // A job that waits in its queue (handed to the queue already, so no worker takes it).
    await server.db.insert(processingJobs).values({
      id: "waiting-job",
      kind: "reprocess",
      feedId: FEED,
      status: "pending",
      idempotencyKey: "waiting-job",
      queuedAt: new Date(),
    });

    const response = await scrape(`Bearer ${TOKEN}`);
    const families = parsePrometheusText(await response.text());
    const metric = (name: string) => family(families, name);

    const http = metric("curate_http_request_duration_seconds");
    expect(http.type).toBe("histogram");
    expect(seriesValue(http, { route: "/api/feeds/:id", method: "GET", status: "200" })).toBe(1);
    expect(seriesValue(http, { route: "/api/feeds/:id", method: "GET", status: "404" })).toBe(1);
    expect(seriesValue(http, { route: "/api/moderate", method: "POST", status: "200" })).toBeGreaterThan(0);
    // No label anywhere carries an id, a feed's name or a raw path.
    const values = families.flatMap((f) => f.samples.flatMap((sample) => Object.values(sample.labels)));
    for (const raw of [FEED, "no-such-feed-here", tweetId, jobId, "waiting-job", "/api/feeds/observed"]) {
      expect(values.filter((value) => value.includes(raw))).toEqual([]);
    }

    expect(
      seriesValue(metric("curate_jobs_finished_total"), { kind: "approval", status: "completed" }),
    ).toBeGreaterThan(0);
    const steps = metric("curate_step_duration_seconds");
    expect(steps.type).toBe("histogram");
    expect(
      seriesValue(steps, { plugin: "@curate/webhook", channel: "webhook", outcome: "success" }),
    ).toBeGreaterThan(0);
    expect(seriesValue(steps, { plugin: "@curate/rss", channel: "rss", outcome: "success" })).toBeGreaterThan(
      0,
    );

    expect(seriesValue(metric("curate_queue_depth"), { kind: "reprocess" })).toBe(1);
    expect(
      seriesValue(metric("curate_queue_oldest_age_seconds"), { kind: "reprocess" }),
    ).toBeGreaterThanOrEqual(0);
    expect(seriesValue(metric("curate_jobs_open"), { kind: "reprocess", status: "pending" })).toBe(1);

    expect(seriesValue(metric("curate_intake_items_total"), { network: "test" })).toBe(1);
    expect(seriesValue(metric("curate_intake_lag_seconds"), { network: "test" })).toBe(1);
    expect(seriesValue(metric("curate_upstream_budget_left"), { upstream: "x_api" })).toBe(300);
    expect(seriesValue(metric("curate_upstream_budget_used"), { upstream: "x_api" })).toBe(0);
    const pool = metric("curate_db_pool_connections");
    expect(seriesValue(pool, { state: "total" })).toBeGreaterThanOrEqual(1);
    expect(seriesValue(pool, { state: "waiting" })).toBe(0);
    expect(seriesValue(metric("curate_db_pool_max"), {})).toBe(server.database.driver === "pglite" ? 1 : 10);
    expect(seriesValue(metric("curate_workers"), { state: "live" })).toBe(1);
    expect(metric("process_cpu_user_seconds_total").type).toBe("counter");
    expect(metric("nodejs_heap_size_used_bytes").type).toBe("gauge");
    await server.db.delete(processingJobs).where(eq(processingJobs.id, "waiting-job"));
  });

  it("does not exist without METRICS_TOKEN, and tracing stays off without an endpoint", async () => {
    const plain = await startTestServer();
    try {
      const response = await plain.request("/metrics");
      expect(response.status).toBe(404);
      expect((await readJson(response)).error.code).toBe("NOT_FOUND");
    } finally {
      await plain.close();
    }
    expect(await startTracing(loadEnv({ DATA_DIR: "/tmp" }), createLogger("silent"))).toBeNull();
  });
});

describe("two apps in one process", () => {
  it("keep their own series and their own traces", async () => {
    const otherReceiver = await startOtlpReceiver();
    // One without tracing and one tracing to a collector of its own, beside this file's app (tracing to `receiver`).
    const quiet = await startTestServer({ METRICS_TOKEN: TOKEN });
    const traced = await startTestServer({
      METRICS_TOKEN: TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: otherReceiver.url,
      OTEL_SERVICE_NAME: "curate-other",
    });
    try {
      for (let i = 0; i < 3; i++) expect((await quiet.request("/api/leaderboard")).status).toBe(200);
      expect((await traced.request("/api/feeds")).status).toBe(200);
      const requestsOf = async (app: TestServer) => {
        const response = await app.request("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
        expect(response.status).toBe(200);
        const families = parsePrometheusText(await response.text());
        // Each app's registry has the process metrics too, registered once in each.
        expect(family(families, "process_cpu_user_seconds_total").type).toBe("counter");
        return family(families, "curate_http_request_duration_seconds");
      };
      const leaderboard = { route: "/api/leaderboard", method: "GET", status: "200" };
      const feedList = { route: "/api/feeds", method: "GET", status: "200" };
      const [mine, quietOnes, tracedOnes] = [
        await requestsOf(server),
        await requestsOf(quiet),
        await requestsOf(traced),
      ];
      expect(seriesValue(quietOnes, leaderboard)).toBe(3);
      expect(seriesValue(quietOnes, feedList)).toBeUndefined();
      expect(seriesValue(tracedOnes, feedList)).toBe(1);
      expect(seriesValue(tracedOnes, leaderboard)).toBeUndefined();
      expect(seriesValue(mine, leaderboard)).toBeUndefined();
      expect(seriesValue(mine, feedList)).toBeUndefined();

      await traced.telemetry.flushTraces();
      await server.telemetry.flushTraces();
      const names = (spans: typeof receiver.spans) => spans.map((span) => span.name);
      expect(names(otherReceiver.spans)).toContain("GET /api/feeds");
      expect(otherReceiver.spans.every((span) => span.service === "curate-other")).toBe(true);
      expect(names(otherReceiver.spans)).not.toContain("GET /api/leaderboard");
      expect(receiver.spans.every((span) => span.service === "curate-test")).toBe(true);
      expect(names(receiver.spans)).not.toContain("GET /api/leaderboard");
      expect(names(receiver.spans)).not.toContain("GET /api/feeds");
    } finally {
      await quiet.close();
      await traced.close();
      await otherReceiver.close();
    }
  });
});

describe("traces", () => {
  it("follow an approval from its HTTP request through the job and each step to the outbound call", async () => {
    const { jobId } = await approvedJob("A traced post travels far");
    await server.telemetry.flushTraces();
    const jobSpanOf = () =>
      receiver.spans.find(
        (span) => span.attributes["curate.job.id"] === jobId && span.name === "processing.job",
      );
    await expect.poll(jobSpanOf).toBeDefined();
    const jobSpan = jobSpanOf();
    if (!jobSpan) throw new Error("no job span");
    await expect
      .poll(async () => {
        await server.telemetry.flushTraces();
        return receiver.spans.filter((span) => span.traceId === jobSpan.traceId).map((span) => span.name);
      })
      .toEqual(
        expect.arrayContaining(["POST /api/moderate", "processing.request", "processing.job", "HTTP POST"]),
      );
    const trace = receiver.spans.filter((span) => span.traceId === jobSpan.traceId);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const request = trace.find((span) => span.name === "POST /api/moderate");
    expect(request?.parentSpanId).toBeUndefined();
    expect(request?.attributes["http.route"]).toBe("/api/moderate");
    expect(request?.service).toBe("curate-test");
    expect(byId.get(jobSpan.parentSpanId ?? "")?.name).toBe("processing.request");
    expect(byId.get(byId.get(jobSpan.parentSpanId ?? "")?.parentSpanId ?? "")).toBe(request);
    const steps = trace.filter((span) => span.name === "processing.step");
    expect(steps.map((span) => span.attributes["curate.step.plugin"]).sort()).toEqual([
      "@curate/rss",
      "@curate/webhook",
    ]);
    for (const step of steps) {
      expect(step.parentSpanId).toBe(jobSpan.spanId);
      expect(step.attributes["curate.job.id"]).toBe(jobId);
    }
    const webhookStep = steps.find((span) => span.attributes["curate.step.plugin"] === "@curate/webhook");
    const outbound = trace.find((span) => span.name === "HTTP POST");
    expect(outbound?.parentSpanId).toBe(webhookStep?.spanId);
    expect(outbound?.attributes).toMatchObject({
      "server.address": "127.0.0.1",
      "http.response.status_code": 202,
    });
  });

  it("start a trace at each mention poll", async () => {
    await server.worker?.runIntakeNow();
    await expect
      .poll(async () => {
        await server.telemetry.flushTraces();
        return receiver.spans.some(
          (span) => span.name === "intake.poll" && span.attributes["curate.intake.network"] === "test",
        );
      })
      .toBe(true);
  });
});

describe("GET /api/operations", () => {
  it("shows super admins the workers, queues, failure rates, sources, budgets and the log check", async () => {
    await server.worker?.runIntakeNow();
    const { status, body } = await server.json("/api/operations", { headers: sessionHeaders(server, admin) });
    expect(status).toBe(200);
    const overview = operationsOverviewSchema.parse(body.data);
    expect(overview.workers).toEqual([expect.objectContaining({ live: true, role: "worker" })]);
    expect(overview.failureRates.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ plugin: "@curate/webhook", channel: "webhook", failed: 0, rate: 0 }),
      ]),
    );
    expect(overview.intakeSources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sourceKey: "test:mentions",
          network: "test",
          silentMinutes: 0,
          lastError: null,
        }),
      ]),
    );
    expect(
      overview.intakeSources.find((source) => source.sourceKey === "test:mentions")?.lastSuccessAt,
    ).not.toBeNull();
    expect(overview.budgets).toEqual([expect.objectContaining({ name: "x_api", limit: 300, left: 300 })]);
    expect(overview.logCheck).toEqual({ available: false });
    expect(overview.alerts).toEqual({ targets: [], open: [] });
  });

  it("is for super admins only, and GET /api/users/me says who is one", async () => {
    const anonymous = await server.json("/api/operations");
    expect(anonymous.status).toBe(401);
    const someone = (await signIn(server)).cookie;
    const refused = await server.json("/api/operations", { headers: sessionHeaders(server, someone) });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");

    const me = async (cookie: string) =>
      currentUserSchema.parse(
        (await server.json("/api/users/me", { headers: sessionHeaders(server, cookie) })).body.data,
      );
    expect((await me(admin)).superAdmin).toBe(true);
    expect((await me(someone)).superAdmin).toBe(false);
  });
});
