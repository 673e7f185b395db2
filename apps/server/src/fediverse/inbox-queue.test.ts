import { MemoryKvStore } from "@fedify/fedify";
import { Follow } from "@fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScratchDatabase } from "../../test/databases.ts";
import { insertFeed } from "../../test/factories.ts";
import { createFediverseReader, type FediverseReader } from "../../test/fakes/fediverse-reader.ts";
import { freePort, freshDatabase } from "../../test/harness.ts";
import { type ServedApp, serveApp } from "../../test/serve-app.ts";
import { fediverseDeliveries, fediverseFollowers, type User, users } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { createLogger } from "../logger.ts";
import { startWorker, type WorkerHost } from "../worker/host.ts";
import { FEDIVERSE_INBOX_QUEUE } from "./queue.ts";
import { setFediverse } from "./service.ts";

/**
 * Fedify's inbox queue across the process roles (decision 0037). An API-only process (the app without a worker, as
 * `--role=api` runs it) checks a Follow's signature, queues it and answers 202; nothing handles it until a worker on
 * the same database listens. A handler that fails is retried by pg-boss with backoff; one that succeeded is not run
 * again, even when the remote server sends the same activity twice.
 */
let scratch: ScratchDatabase;
let api: ServedApp;
let worker: WorkerHost | null = null;
let reader: FediverseReader;
/** Reader addresses that answer 503, as a follower's server that is down. */
const down = new Set<string>();
let follow: Follow;

const actorUrl = () => `${api.baseUrl}/ap/feeds/news`;
const carol = () => `${api.baseUrl}/reader/carol`;

interface InboxJob {
  id: string;
  state: string;
  retryCount: number;
  /** Seconds between the attempt's start and the time the job may run again. */
  waitSeconds: number | null;
}

async function inboxJobs(): Promise<InboxJob[]> {
  return queryRows<InboxJob>(
    scratch.handle.db,
    sql`select id, state::text as state, retry_count as "retryCount",
          extract(epoch from start_after - started_on)::float as "waitSeconds"
        from pgboss.job where name = ${FEDIVERSE_INBOX_QUEUE} order by created_on, id`,
  );
}

const followers = async () =>
  (
    await scratch.handle.db
      .select({ actorUri: fediverseFollowers.actorUri })
      .from(fediverseFollowers)
      .where(eq(fediverseFollowers.feedId, "news"))
  ).map((row) => row.actorUri);

/** The Accepts the handler queued for carol: one per run of it. */
const accepts = () =>
  scratch.handle.db
    .select()
    .from(fediverseDeliveries)
    .where(eq(fediverseDeliveries.inbox, `${carol()}/inbox`));

beforeAll(async () => {
  scratch = await freshDatabase();
  reader = createFediverseReader(new MemoryKvStore());
  const port = await freePort();
  api = await serveApp(
    scratch.handle,
    {
      NODE_ENV: "test",
      FEDIVERSE_ALLOW_LOOPBACK: "true",
      // The worker sends deliveries only when asked; here they are only counted.
      FEDIVERSE_TICK_MS: "3600000",
      INTAKE_INTERVAL_MS: "3600000",
      WORKER_MONITOR_INTERVAL_SECONDS: "1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    {
      // The reader's server is this one's neighbour under /reader/.
      fetch: (app) => (request) => {
        const { pathname } = new URL(request.url);
        if (!pathname.startsWith("/reader/")) return app.fetch(request);
        if (down.has(pathname)) return new Response("Service Unavailable", { status: 503 });
        return reader.federation.fetch(request, { contextData: undefined });
      },
    },
  );
  const [owner] = await scratch.handle.db.insert(users).values({ nearAccountId: "owner.near" }).returning();
  await insertFeed(scratch.handle.db, { id: "news", name: "News", createdBy: owner.nearAccountId });
  await setFediverse(scratch.handle.db, api.env, owner as User, "news", true);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await scratch?.dispose();
});

describe("the fediverse inbox on pg-boss", () => {
  it("answers 503 while the queue cannot take activities (not installed yet), so the sender delivers again", async () => {
    await scratch.handle.db.execute(sql`alter schema pgboss rename to pgboss_not_yet`);
    try {
      const early = new Follow({
        id: new URL(`${carol()}#follows/early`),
        actor: new URL(carol()),
        object: new URL(actorUrl()),
      });
      const response = await reader.post(api.baseUrl, "carol", `${actorUrl()}/inbox`, early);
      expect(response.status).toBe(503);
    } finally {
      await scratch.handle.db.execute(sql`alter schema pgboss_not_yet rename to pgboss`);
    }
    expect(await followers()).toEqual([]);
  });

  it("an API-only process checks a Follow's signature, queues it and answers 202 without handling it", async () => {
    follow = new Follow({
      id: new URL(`${carol()}#follows/1`),
      actor: new URL(carol()),
      object: new URL(actorUrl()),
    });
    const response = await reader.post(api.baseUrl, "carol", `${actorUrl()}/inbox`, follow);
    expect(response.status).toBe(202);
    // No worker runs on this database: the activity waits in the queue, and no follower is recorded.
    expect(await inboxJobs()).toEqual([expect.objectContaining({ state: "created", retryCount: 0 })]);
    expect(await followers()).toEqual([]);
    expect(await accepts()).toHaveLength(0);
  });

  it("a worker handles it; a handler that fails is retried by pg-boss with backoff", async () => {
    // Carol's server is down when the worker fetches her actor: the Follow's handler fails.
    down.add("/reader/carol");
    worker = await startWorker({
      database: scratch.handle,
      env: api.env,
      intake: api.intake,
      logger: createLogger("silent"),
      telemetry: api.telemetry,
    });
    await expect.poll(async () => (await inboxJobs())[0]?.state).toBe("retry");
    const [failed] = await inboxJobs();
    // The first retry waits at least the queue's base delay (30 s, doubling after each failure).
    expect(failed.waitSeconds).toBeGreaterThanOrEqual(30);
    expect(await followers()).toEqual([]);

    // Her server is back; instead of waiting for the retry, its time is brought forward.
    down.delete("/reader/carol");
    await scratch.handle.db.execute(sql`update pgboss.job set start_after = now() where id = ${failed.id}`);
    await expect.poll(async () => (await inboxJobs())[0]?.state).toBe("completed");
    expect(await inboxJobs()).toEqual([expect.objectContaining({ state: "completed", retryCount: 1 })]);
    expect(await followers()).toEqual([carol()]);
    expect(await accepts()).toHaveLength(1);
  });

  it("an activity handled once is not handled again when its server sends it again", async () => {
    const again = await reader.post(api.baseUrl, "carol", `${actorUrl()}/inbox`, follow);
    expect(again.status).toBe(202);
    await expect
      .poll(async () => (await inboxJobs()).map((job) => job.state))
      .toEqual(["completed", "completed"]);
    expect(await followers()).toEqual([carol()]);
    expect(await accepts()).toHaveLength(1);
  });
});

describe("NodeInfo", () => {
  it("is not served without the fediverse, like its other addresses", async () => {
    const plain = await serveApp(scratch.handle, { NODE_ENV: "test" });
    try {
      for (const path of ["/.well-known/nodeinfo", "/ap/nodeinfo/2.1", "/.well-known/webfinger"]) {
        expect((await fetch(`${plain.baseUrl}${path}`)).status, path).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });
});
