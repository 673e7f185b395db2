import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { rateLimits } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { consumeLimit } from "./service.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({}, { worker: {} });
});

afterAll(async () => {
  await server?.close();
});

describe("rate-limit windows", () => {
  it("are asked to be pruned by every worker as it starts, through the queue", async () => {
    await expect
      .poll(async () => {
        const rows = await queryRows<{ count: number }>(
          server.db,
          sql`select count(*)::int as count from pgboss.job where name = 'curate-housekeeping'`,
        );
        return rows[0].count;
      })
      .toBeGreaterThan(0);
  });

  it("that ended more than a day ago go in a housekeeping pass; current ones stay and keep counting", async () => {
    await server.db.insert(rateLimits).values([
      { key: "login:old", windowStart: new Date(Date.now() - 3 * 24 * 3600 * 1000), count: 7 },
      { key: "login:yesterday", windowStart: new Date(Date.now() - 25 * 3600 * 1000), count: 2 },
    ]);
    await consumeLimit(server.db, "login:now", 5, 60_000);

    await server.worker?.runHousekeepingNow();

    const left = await server.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(left.map((row) => row.key).sort()).toEqual(["login:now"]);
    expect((await consumeLimit(server.db, "login:now", 5, 60_000)).count).toBe(2);
  });
});
