import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type ChildServer, startChildServer } from "../../test/child-server.ts";
import { openScratchDatabase } from "../../test/databases.ts";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeOpenAi } from "../../test/fake-openai.ts";
import { type DatabaseHandle, openDatabase } from "../db/index.ts";
import { processingJobs, processingSteps, rssItems } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * A database the test and real server processes take turns on: a copy of the migrated template in a data folder
 * (PGlite, which one process opens at a time) or a database on the PostgreSQL server (shared at once).
 */
async function sharedDatabase() {
  if (postgresUrl) {
    const scratch = await openScratchDatabase("postgres", {
      adminUrl: postgresUrl,
      template: inject("pgTemplateDatabase"),
    });
    const url = (scratch.handle.connection as { url: string }).url;
    return {
      childEnv: { DATABASE_URL: url } as Record<string, string>,
      workerArgs: ["--role=worker"],
      open: async () => scratch.handle,
      release: async () => {},
      dispose: () => scratch.dispose(),
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), "curate-workers-"));
  cpSync(inject("pgliteTemplateDir"), join(dataDir, "pglite"), { recursive: true });
  let handle: DatabaseHandle | null = null;
  return {
    childEnv: { DATA_DIR: dataDir } as Record<string, string>,
    workerArgs: [] as string[],
    open: async () => {
      handle ??= await openDatabase({ pgliteDir: join(dataDir, "pglite") });
      return handle;
    },
    release: async () => {
      await handle?.close();
      handle = null;
    },
    dispose: async () => {
      await handle?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const children: ChildServer[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill("SIGKILL")));
});

function worker(database: Awaited<ReturnType<typeof sharedDatabase>>, env: Record<string, string> = {}) {
  const child = startChildServer(database.workerArgs, {
    ...database.childEnv,
    WORKER_MONITOR_INTERVAL_SECONDS: "1",
    PROCESSING_HEARTBEAT_SECONDS: "10",
    INTAKE_INTERVAL_MS: "3600000",
    ...env,
  });
  children.push(child);
  return child;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a worker process killed with SIGKILL mid-job", () => {
  it("leaves the job to the next worker, which resumes it without repeating succeeded steps", async () => {
    const database = await sharedDatabase();
    const ai = await startFakeOpenAi();
    try {
      const db = (await database.open()).db;
      await insertFeed(db, {
        id: "resume",
        config: {
          id: "resume",
          name: "Resume",
          description: "d",
          outputs: {
            stream: {
              enabled: true,
              transform: [
                { plugin: "@curate/object-transform", config: { mappings: { title: "{{content}}" } } },
                {
                  plugin: "@curate/ai-transform",
                  config: { prompt: "Tag it", apiKey: "{{TEST_AI_KEY}}", outputFormat: "json" },
                },
              ],
              distribute: [{ plugin: "@curate/rss" }],
            },
          },
        },
      });
      const { tweetId } = await insertSubmission(db, { feeds: [{ feedId: "resume", status: "approved" }] });
      const jobId = randomUUID();
      await db.insert(processingJobs).values({
        id: jobId,
        submissionId: tweetId,
        feedId: "resume",
        idempotencyKey: `approval:${tweetId}:resume:1`,
        publicationKey: `approval:${tweetId}:resume:1`,
      });
      await database.release();

      const env = { AI_API_BASE_URL: ai.baseUrl, TEST_AI_KEY: "sk-resume", PLUGIN_SECRETS: "TEST_AI_KEY" };
      ai.hang();
      const first = worker(database, env);
      await until(() => ai.requests.length === 1, 180_000, "the first worker to reach the AI step");
      await first.kill("SIGKILL");

      ai.reply(JSON.stringify({ tags: ["resumed"] }));
      const second = worker(database, env);
      await second.waitFor(new RegExp(`"jobId":"${jobId}","status":"completed"`), 180_000);
      await second.kill("SIGTERM");

      const after = (await database.open()).db;
      const [job] = await after.select().from(processingJobs).where(eq(processingJobs.id, jobId));
      expect(job).toMatchObject({ status: "completed", attempts: 2 });
      const steps = await after
        .select()
        .from(processingSteps)
        .where(eq(processingSteps.jobId, jobId))
        .orderBy(processingSteps.stepOrder);
      expect(steps.map((s) => [s.pluginName, s.status, s.attempts])).toEqual([
        ["@curate/object-transform", "success", 1],
        ["@curate/ai-transform", "success", 2],
        ["@curate/rss", "success", 1],
      ]);
      expect(ai.requests).toHaveLength(2);
      expect(await after.select().from(rssItems).where(eq(rssItems.feedId, "resume"))).toHaveLength(1);
    } finally {
      await ai.close();
      await database.dispose();
    }
  }, 420_000);
});

/**
 * Enough approvals that both workers claim jobs while the other holds some; the throughput at scale is
 * `bench:processing`'s, and the scale-out test shares approvals between two workers beside two API processes.
 */
const SHARED_JOBS = 200;

// Two processes can share only a PostgreSQL server: the embedded database belongs to one process at a time.
describe.skipIf(!postgresUrl)("two worker processes on PostgreSQL", () => {
  it(`share ${SHARED_JOBS} approvals and run every job exactly once`, async () => {
    const database = await sharedDatabase();
    try {
      const db = (await database.open()).db;
      await insertFeed(db, {
        id: "shared",
        config: {
          id: "shared",
          name: "Shared",
          description: "d",
          outputs: {
            stream: {
              enabled: true,
              transform: [
                { plugin: "@curate/object-transform", config: { mappings: { title: "{{content}}" } } },
              ],
              distribute: [{ plugin: "@curate/rss" }],
            },
          },
        },
      });
      await db.execute(sql`insert into submissions (tweet_id, user_id, username, content, url, created_at, submitted_at)
        select 'w' || n, 'u', 'amy', 'Post ' || n, 'https://x.com/amy/status/w' || n, now(), now()
        from generate_series(1, ${SHARED_JOBS}) n`);
      await db.execute(sql`insert into submission_feeds (submission_id, feed_id, status)
        select 'w' || n, 'shared', 'approved' from generate_series(1, ${SHARED_JOBS}) n`);
      const a = worker(database);
      const b = worker(database);
      await Promise.all([a.waitFor(/Curate worker running/), b.waitFor(/Curate worker running/)]);
      await db.execute(sql`insert into processing_jobs (id, submission_id, feed_id, idempotency_key, publication_key)
        select gen_random_uuid()::text, 'w' || n, 'shared', 'approval:w' || n, 'approval:w' || n
        from generate_series(1, ${SHARED_JOBS}) n`);
      await until(
        async () => {
          const [row] = await queryRows<{ done: number }>(
            db,
            sql`select count(*)::int as done from processing_jobs where feed_id = 'shared' and status = 'completed'`,
          );
          return row.done === SHARED_JOBS;
        },
        300_000,
        `${SHARED_JOBS} completed jobs`,
      );
      const [stats] = await queryRows<{
        jobs: number;
        maxAttempts: number;
        steps: number;
        maxStepAttempts: number;
      }>(
        db,
        sql`select count(distinct j.id)::int as jobs, max(j.attempts)::int as "maxAttempts",
            count(s.id)::int as steps, max(s.attempts)::int as "maxStepAttempts"
          from processing_jobs j join processing_steps s on s.job_id = j.id where j.feed_id = 'shared'`,
      );
      expect(stats).toEqual({
        jobs: SHARED_JOBS,
        maxAttempts: 1,
        steps: 2 * SHARED_JOBS,
        maxStepAttempts: 1,
      });
      // A worker logs "finished" just after its commit: the last lines may still be on their way.
      const logged = () => a.count(/processing job finished/) + b.count(/processing job finished/);
      await until(() => logged() >= SHARED_JOBS, 300_000, `${SHARED_JOBS} finish log lines`);
      const finishedBy = [a, b].map((child) => child.count(/processing job finished/));
      expect(finishedBy[0] + finishedBy[1]).toBe(SHARED_JOBS);
      expect(Math.min(...finishedBy)).toBeGreaterThan(0);
      expect(await db.select().from(rssItems).where(eq(rssItems.feedId, "shared"))).toHaveLength(SHARED_JOBS);
    } finally {
      await database.dispose();
    }
  }, 480_000);
});
