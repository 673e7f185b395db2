import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { queryRows } from "../db/sql.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const LINKS = 300;

// Backends can be terminated only on a PostgreSQL server; the embedded database has one in-process connection.
describe.skipIf(!postgresUrl)("PostgreSQL backends terminated mid-transaction under load", () => {
  let server: TestServer;
  let cookie: string;
  const owner = newKey();

  beforeAll(async () => {
    server = await startTestServer({
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      WRITE_RATE_LIMIT_PER_MINUTE: "100000",
    });
    await insertFeed(server.db, { id: "load", createdBy: owner.implicitAccountId });
    await server.db.execute(sql`insert into submissions (tweet_id, user_id, username, content, url, created_at, submitted_at)
      select 'c' || n, 'u', 'amy', 'Post ' || n, 'https://x.com/amy/status/c' || n, now(), now()
      from generate_series(1, ${LINKS}) n`);
    await server.db.execute(sql`insert into submission_feeds (submission_id, feed_id, status, curator_username)
      select 'c' || n, 'load', 'pending', 'curator' from generate_series(1, ${LINKS}) n`);
    ({ cookie } = await signIn(server, owner));
  });

  afterAll(() => server?.close());

  it("keeps the process alive, answers 503 (never 500), writes nothing by halves, and recovers", async () => {
    const database = new URL((server.database.connection as { url: string }).url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    let killing = true;
    let killed = 0;
    const killer = (async () => {
      while (killing) {
        const result = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [database],
        );
        killed += result.rowCount ?? 0;
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    })();

    const statuses = new Map<number, number>();
    let next = 1;
    const worker = async () => {
      while (next <= LINKS) {
        const id = next++;
        const response = await server.request("/api/moderate", {
          method: "POST",
          headers: sessionHeaders(server, cookie),
          body: JSON.stringify({
            submissionId: `c${id}`,
            feedId: "load",
            action: id % 3 ? "approve" : "reject",
          }),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const body = (await response.json()) as { success: boolean };
        expect(body.success).toBe(response.status < 400);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    killing = false;
    await killer;
    await admin.end();

    expect(killed).toBeGreaterThan(0);
    expect([...statuses.keys()].every((status) => [200, 401, 503].includes(status))).toBe(true);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);

    // The server recovers by itself: a fresh request succeeds once the connections are back.
    let health = 0;
    for (let i = 0; i < 50 && health !== 200; i++) {
      health = (await server.request("/api/health")).status;
      if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(health).toBe(200);

    // Nothing half-written: every decided link has exactly its one history row (and, approved, its one processing
    // request); every undecided link has none; the counters agree with the links.
    const [consistency] = await queryRows<{ broken: number; counters: boolean }>(
      server.db,
      sql`select
          (select count(*)::int from submission_feeds sf where sf.feed_id = 'load' and (
            (sf.status = 'pending' and (
              exists (select 1 from moderation_history h where h.submission_id = sf.submission_id and h.feed_id = 'load')
              or exists (select 1 from processing_jobs j where j.submission_id = sf.submission_id and j.feed_id = 'load')))
            or (sf.status <> 'pending' and (select count(*) from moderation_history h
              where h.submission_id = sf.submission_id and h.feed_id = 'load') <> 1)
            or (sf.status = 'approved' and (select count(*) from processing_jobs j
              where j.submission_id = sf.submission_id and j.feed_id = 'load') <> 1)
            or (sf.status = 'rejected' and exists (select 1 from processing_jobs j
              where j.submission_id = sf.submission_id and j.feed_id = 'load'))
          )) as broken,
          (select bool_and(c.count = (select count(*) from submission_feeds sf where sf.feed_id = 'load' and sf.status = c.status))
            from submission_counts c where c.scope = 'load') as counters`,
    );
    expect(consistency).toEqual({ broken: 0, counters: true });
  });
});
