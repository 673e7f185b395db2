import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ChildServer, startChildServer } from "../../test/child-server.ts";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { insertFeed } from "../../test/factories.ts";
import { startFakeX } from "../../test/fake-x.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { newKey } from "../../test/near.ts";
import { startRoundRobinProxy } from "../../test/round-robin-proxy.ts";
import { signIn } from "../../test/session.ts";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const BOT = "curatebot";
const X_TOKEN = "scale-out-bearer";
const HOOK_SECRET = "scale-out-hook-secret";
const FEED = "scale";
const APPROVER = "scale_mod";

/** The queues every worker asks to run each interval, each meant to run once per interval over all workers. */
const SCHEDULES = [
  "curate-intake",
  "curate-recaps",
  "curate-alerts",
  "curate-trust-standing",
  "curate-queue-reminders",
];

const FINISHED = ["completed", "completed_with_errors", "failed", "cancelled"];

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions
  body: any;
}

/** An HTTP client of one base URL (an API process, or the proxy) sending as the web app does. */
function clientOf(baseUrl: string, origin: () => string) {
  const request = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  const json = async (path: string, init?: RequestInit): Promise<Answer> => {
    const response = await request(path, init);
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
  const send = (path: string, cookie: string | null, method = "GET", body?: unknown) =>
    json(path, {
      method,
      headers: {
        Origin: origin(),
        ...(cookie ? { Cookie: cookie } : {}),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { baseUrl, request, json, send };
}

const version = (answer: Answer) => Number(answer.headers.get("x-change-version"));

// Several processes can share only a PostgreSQL server: the embedded database belongs to one process at a time.
describe.skipIf(!postgresUrl)(
  "two API and two worker processes on one PostgreSQL behind a proxy (PostgreSQL only: PGlite serves one process)",
  () => {
    let scratch: ScratchDatabase;
    let db: Database;
    let x: Awaited<ReturnType<typeof startFakeX>>;
    let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
    let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;
    const dataDirs: string[] = [];
    const children: ChildServer[] = [];
    const moderatorKey = newKey();

    // Four processes starting at once on a busy machine can take minutes: the limits only stop a hang.
    beforeAll(async () => {
      scratch = await openScratchDatabase("postgres", {
        adminUrl: postgresUrl,
        template: inject("pgTemplateDatabase"),
      });
      db = scratch.handle.db;
      x = await startFakeX({ bearerToken: X_TOKEN, botUsername: BOT });
      hook = await startWebhookReceiver(HOOK_SECRET);
      proxy = await startRoundRobinProxy();
      await insertFeed(db, {
        id: FEED,
        createdBy: moderatorKey.implicitAccountId,
        approvers: { twitter: [APPROVER] },
        config: {
          outputs: {
            stream: {
              enabled: true,
              distribute: [
                { plugin: "@curate/rss" },
                { plugin: "@curate/webhook", config: { url: hook.url, secret: "{{HOOK_SECRET}}" } },
              ],
            },
            recap: {
              id: "digest",
              name: "Digest",
              enabled: true,
              schedule: "0 9 * * 1",
              timezone: "UTC",
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
                  config: { url: hook.url, secret: "{{HOOK_SECRET}}", event: "recap.published" },
                },
              ],
            },
          },
        },
      });

      // What every process must share (README, "Production topology"): the database, the session secret, the key
      // that seals feed secrets and the moderation log's signing key. Each has its own DATA_DIR, so nothing else is shared behind the test's back.
      const shared = {
        DATABASE_URL: (scratch.handle.connection as { url: string }).url,
        SESSION_SECRET: randomBytes(32).toString("hex"),
        LOG_SIGNING_KEY: randomBytes(32).toString("base64"),
        SECRETS_KEY: randomBytes(32).toString("base64"),
        PUBLIC_URL: proxy.url,
        HOST: "127.0.0.1",
        // As long as it may be: only a change notice can explain a fresh read on the other process.
        READ_CACHE_TTL_MS: "60000",
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        WRITE_RATE_LIMIT_PER_MINUTE: "1000",
        PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
        BOT_HANDLE: BOT,
        X_API_BASE_URL: x.url,
        X_BEARER_TOKEN: X_TOKEN,
        X_API_CALLS_PER_HOUR: "100000",
        // Every schedule at its shortest, so each runs many intervals within the test.
        INTAKE_INTERVAL_MS: "1000",
        RECAP_TICK_MS: "1000",
        ALERT_CHECK_INTERVAL_MS: "1000",
        TRUST_REEVALUATION_INTERVAL_MS: "1000",
        QUEUE_REMINDER_INTERVAL_MS: "1000",
        WORKER_MONITOR_INTERVAL_SECONDS: "1",
      };
      const start = (role: "api" | "worker") => {
        const dataDir = mkdtempSync(join(tmpdir(), `curate-scale-${role}-`));
        dataDirs.push(dataDir);
        const child = startChildServer([`--role=${role}`], { ...shared, DATA_DIR: dataDir });
        children.push(child);
        return child;
      };
      const apis = [start("api"), start("api")];
      const workers = [start("worker"), start("worker")];
      const listening = await Promise.all(apis.map((api) => api.waitFor(/Curate listening on/)));
      await Promise.all(workers.map((worker) => worker.waitFor(/Curate worker running/)));
      proxy.route(listening.map((line) => `http://127.0.0.1:${new URL(JSON.parse(line).url).port}`));
    }, 360_000);

    afterAll(async () => {
      await Promise.all(children.map((child) => child.kill("SIGKILL")));
      await proxy?.close();
      await hook?.close();
      await x?.close();
      await scratch?.dispose();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });

    it("serves mixed traffic: one job and one delivery per branch for each approval, each schedule once per interval, sessions and fresh reads on either API process", async () => {
      const [apiOne, apiTwo] = children.slice(0, 2);
      const workers = children.slice(2);
      const through = clientOf(proxy.url, () => proxy.url);
      // Each API process on its own, for the checks that must know which one answers.
      const [one, two] = proxy.targets().map((url) => clientOf(url, () => proxy.url));

      // Sign-ins through the proxy: the nonce is asked of one API process and spent on the other.
      const moderator = (await signIn(through, moderatorKey)).cookie;
      const reader = (await signIn(through)).cookie;
      expect(new Set(proxy.routed.slice(0, 2)).size).toBe(2);

      // A session made through one process works on the other.
      const meOne = await one.send("/api/users/me", moderator);
      const meTwo = await two.send("/api/users/me", moderator);
      expect([meOne.status, meTwo.status]).toEqual([200, 200]);
      expect(meTwo.body.data.nearAccountId).toBe(moderatorKey.implicitAccountId);
      expect(meTwo.body.data).toEqual(meOne.body.data);
      expect((await two.send("/api/users/me", reader)).status).toBe(200);

      // The webhook's secret, sealed by the process that takes it and opened by whichever worker sends.
      const secret = await through.send(`/api/feeds/${FEED}/secrets/HOOK_SECRET`, moderator, "PUT", {
        value: HOOK_SECRET,
      });
      expect(secret.status).toBe(200);

      // Intake from the fake X: eight posts submitted by mention, read by whichever worker runs the tick.
      const mentions: string[] = [];
      const posts: string[] = [];
      for (let i = 1; i <= 8; i++) {
        const post = x.tweet(`author_${i}`, `Post number ${i} worth curating`);
        posts.push(post);
        mentions.push(x.tweet(`curator_${i}`, `!submit @${BOT} #${FEED} read this`, post));
      }
      await until(
        async () => (await linkCounts(db)).pending === 8,
        "eight submissions read from the X mentions",
      );

      // After a write on one process, the other's next read reflects it: its kept answer is dropped when the
      // change's notice arrives, which its X-Change-Version shows.
      const pendingList = `/api/submissions/feed/${FEED}?status=pending`;
      // The intake's own notice may still be on its way: read until the answer is one kept.
      let kept = await two.send(pendingList, null);
      await until(async () => {
        kept = await two.send(pendingList, null);
        return kept.headers.get("x-cache") === "HIT";
      }, "the other API process to keep the pending list");
      expect(kept.body.data.items).toHaveLength(8);
      const approved = await one.send("/api/moderate", moderator, "POST", {
        submissionId: posts[0],
        feedId: FEED,
        action: "approve",
      });
      expect(approved.status).toBe(200);
      const written = version(approved);
      expect(written).toBeGreaterThan(version(kept));
      await until(
        async () => version(await two.send("/api/health", null)) >= written,
        "the other API process to hear of the change",
      );
      const after = await two.send(pendingList, null);
      expect(after.headers.get("x-cache")).toBeNull();
      expect(version(after)).toBeGreaterThanOrEqual(written);
      expect(after.body.data.items.map((item: { tweetId: string }) => item.tweetId)).not.toContain(posts[0]);
      expect(after.body.data.items).toHaveLength(7);

      // Decisions: the same approval sent to both processes at once is made once (the other is told it is taken).
      for (const post of posts.slice(1, 6)) {
        const decision = { submissionId: post, feedId: FEED, action: "approve" };
        const both = await Promise.all([
          one.send("/api/moderate", moderator, "POST", decision),
          two.send("/api/moderate", moderator, "POST", decision),
        ]);
        expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
      }
      const rejected = await through.send("/api/moderate", moderator, "POST", {
        submissionId: posts[6],
        feedId: FEED,
        action: "reject",
      });
      expect(rejected.status).toBe(200);
      // The last one is approved on X by the feed's approver, replying to its submission.
      x.tweet(APPROVER, `@${BOT} !approve`, mentions[7]);

      // Reads through the proxy meanwhile, by anyone: every one answers.
      for (let i = 0; i < 20; i++) {
        for (const path of [`/api/feeds/${FEED}`, "/api/submissions", "/api/leaderboard", "/api/health"]) {
          const read = await through.send(path, i % 2 ? reader : null);
          expect(read.status, path).toBe(200);
        }
      }

      const approvals = [...posts.slice(0, 6), posts[7]];
      await until(async () => (await linkCounts(db)).approved === 7, "the approval made on X");
      await until(
        async () => (await approvalJobs(db)).filter((job) => FINISHED.includes(job.status)).length === 7,
        "seven finished approval jobs",
      );

      // A recap, asked through the proxy, runs once on one of the workers.
      const recap = await through.send(`/api/processing/feeds/${FEED}/recaps/digest/run`, moderator, "POST");
      expect(recap.status).toBe(201);
      await until(
        async () => FINISHED.includes((await jobStatus(db, recap.body.data.job.id)) ?? ""),
        "the recap job to finish",
      );
      expect(await jobStatus(db, recap.body.data.job.id)).toBe("completed");

      // Every approval: exactly one job, each branch's step run once, one delivery per branch.
      const jobs = await approvalJobs(db);
      expect(jobs.map((job) => job.submissionId).sort()).toEqual([...approvals].sort());
      expect(jobs.map((job) => [job.status, job.attempts])).toEqual(approvals.map(() => ["completed", 1]));
      const steps = await queryRows<{ plugin: string; runs: number; succeeded: number; attempts: number }>(
        db,
        sql`select s.plugin_name as plugin, count(*)::int as runs,
            count(*) filter (where s.status = 'success')::int as succeeded, max(s.attempts)::int as attempts
          from processing_steps s join processing_jobs j on j.id = s.job_id
          where j.feed_id = ${FEED} and j.kind = 'approval' group by s.plugin_name order by s.plugin_name`,
      );
      expect(steps).toEqual([
        { plugin: "@curate/rss", runs: 7, succeeded: 7, attempts: 1 },
        { plugin: "@curate/webhook", runs: 7, succeeded: 7, attempts: 1 },
      ]);
      const [rss] = await queryRows<{ items: number }>(
        db,
        sql`select count(*)::int as items from rss_items where feed_id = ${FEED}`,
      );
      expect(rss.items).toBe(7);
      const received = hook.requests.filter((request) => request.method === "POST");
      const published = received.filter((request) => request.headers["x-curate-event"] === "item.published");
      expect(published).toHaveLength(7);
      expect(new Set(published.map((request) => request.body?.submissionId))).toEqual(new Set(approvals));
      expect(
        received.filter((request) => request.headers["x-curate-event"] === "recap.published"),
      ).toHaveLength(1);
      expect(hook.refused).toEqual([]);

      // Each schedule once per interval: the workers stop (so nothing runs while it is counted), then every pass
      // of each queue had an interval of its own, and each intake pass read the mentions once.
      await until(async () => {
        const passes = await schedulePasses(db);
        return passes.length === SCHEDULES.length && passes.every((row) => row.passes > 1);
      }, "every schedule to have run in two intervals");
      await Promise.all(workers.map((worker) => worker.kill("SIGTERM")));
      const passes = await schedulePasses(db);
      expect(passes.map((row) => row.name)).toEqual([...SCHEDULES].sort());
      for (const row of passes) {
        expect(row.passes, row.name).toBe(row.intervals);
        expect(row.passes, row.name).toBeGreaterThan(1);
      }
      const intakePasses = passes.find((row) => row.name === "curate-intake")?.passes;
      const mentionReads = x.requests.filter(
        (url) => url.pathname.endsWith("/mentions") && !url.searchParams.has("pagination_token"),
      );
      expect(mentionReads).toHaveLength(intakePasses ?? -1);
      // Each decision was answered once, by one process or the other.
      const decisions = (api: ChildServer) => api.count(/"path":"\/api\/moderate"/);
      expect(decisions(apiOne) + decisions(apiTwo)).toBe(12);
    }, 360_000);
  },
);

async function linkCounts(db: Database) {
  const [row] = await queryRows<{ pending: number; approved: number }>(
    db,
    sql`select count(*) filter (where status = 'pending')::int as pending,
        count(*) filter (where status = 'approved')::int as approved
      from submission_feeds where feed_id = ${FEED}`,
  );
  return row;
}

function approvalJobs(db: Database) {
  return queryRows<{ submissionId: string; status: string; attempts: number }>(
    db,
    sql`select submission_id as "submissionId", status, attempts from processing_jobs
      where feed_id = ${FEED} and kind = 'approval'`,
  );
}

async function jobStatus(db: Database, id: string) {
  const [row] = await queryRows<{ status: string }>(
    db,
    sql`select status from processing_jobs where id = ${id}`,
  );
  return row?.status;
}

function schedulePasses(db: Database) {
  return queryRows<{ name: string; passes: number; intervals: number }>(
    db,
    sql`select name, count(*)::int as passes, count(distinct singleton_on)::int as intervals
      from pgboss.job where name in (${sql.join(
        SCHEDULES.map((name) => sql`${name}`),
        sql`, `,
      )}) and state = 'completed' group by name order by name`,
  );
}
