import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { queryRows } from "../db/sql.ts";

/** Config history: every save a version with its diff; a restore is a new save, labelled. */
let server: TestServer;
const ownerKey = newKey();
const adminKey = newKey();
const approverKey = newKey();
const cookies: Record<string, string> = {};

const base = {
  id: "history",
  name: "History",
  description: "A feed with a past",
  moderation: { approvers: { near: [approverKey.implicitAccountId] } },
  sources: [{ plugin: "@curate/x-source", config: {} }],
  outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss" }] } },
};

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  cookies.owner = (await signIn(server, ownerKey)).cookie;
  cookies.admin = (await signIn(server, adminKey)).cookie;
  cookies.approver = (await signIn(server, approverKey)).cookie;
  cookies.stranger = (await signIn(server)).cookie;
});

afterAll(() => server.close());

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  server.json(path, {
    method,
    headers: cookie
      ? sessionHeaders(server, cookie)
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("config history", () => {
  it("keeps every save as a version with who, when and a diff; a restore is a new save", async () => {
    const createdFeed = await send("POST", "/api/feeds", cookies.owner, base);
    expect(createdFeed.status).toBe(201);

    const renamed = { ...base, name: "History, renamed", admins: [adminKey.implicitAccountId] };
    expect((await send("PUT", "/api/feeds/history", cookies.owner, renamed)).status).toBe(200);
    const rechanneled = {
      ...renamed,
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            { plugin: "@curate/rss" },
            {
              plugin: "@curate/webhook",
              config: { url: "https://hooks.example.com/in", secret: "{{HOOK_SECRET}}" },
            },
          ],
        },
      },
    };
    const third = await send("PUT", "/api/feeds/history", cookies.admin, rechanneled);
    expect(third.status, JSON.stringify(third.body)).toBe(200);

    const list = await send("GET", "/api/feeds/history/versions", cookies.owner);
    expect(list.status).toBe(200);
    expect(list.body.data.pagination).toEqual({ page: 0, limit: 20, hasNextPage: false, totalCount: 3 });
    const [v3, v2, v1] = list.body.data.items;
    expect(v1).toMatchObject({
      version: 1,
      kind: "created",
      savedBy: ownerKey.implicitAccountId,
      channelsChanged: false,
      changes: [],
      changeCount: 0,
    });
    expect(v2).toMatchObject({
      version: 2,
      kind: "saved",
      savedBy: ownerKey.implicitAccountId,
      channelsChanged: false,
    });
    expect(v2.changes).toEqual([
      { path: "admins", kind: "added", after: [adminKey.implicitAccountId] },
      { path: "name", kind: "changed", before: "History", after: "History, renamed" },
    ]);
    expect(v3).toMatchObject({
      version: 3,
      kind: "saved",
      savedBy: adminKey.implicitAccountId,
      channelsChanged: true,
    });
    expect(v3.changes).toEqual([
      {
        path: "outputs.stream.distribute[1]",
        kind: "added",
        after: {
          plugin: "@curate/webhook",
          config: { url: "https://hooks.example.com/in", secret: "{{HOOK_SECRET}}" },
        },
      },
    ]);
    expect(Date.parse(v3.savedAt)).toBeGreaterThanOrEqual(Date.parse(v2.savedAt));

    const one = await send("GET", "/api/feeds/history/versions/1", cookies.admin);
    expect(one.status).toBe(200);
    expect(one.body.data.config).toMatchObject({ name: "History" });
    expect(one.body.data.config.admins).toBeUndefined();

    const restored = await send("POST", "/api/feeds/history/versions/1/restore", cookies.owner, {});
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe("Version 1 restored.");
    expect(restored.body.data).toMatchObject({ name: "History", admins: [] });
    const feed = await send("GET", "/api/feeds/history", null);
    expect(feed.body.data.config.outputs.stream.distribute).toEqual([{ plugin: "@curate/rss" }]);

    const after = await send("GET", "/api/feeds/history/versions?limit=2", cookies.owner);
    expect(after.body.data.pagination).toEqual({ page: 0, limit: 2, hasNextPage: true, totalCount: 4 });
    expect(after.body.data.items[0]).toMatchObject({
      version: 4,
      kind: "restored",
      restoredFrom: 1,
      savedBy: ownerKey.implicitAccountId,
      channelsChanged: true,
    });
    const paths = after.body.data.items[0].changes.map((change: { path: string }) => change.path);
    expect(paths).toEqual(["admins", "name", "outputs.stream.distribute[1]"]);
    const page2 = await send("GET", "/api/feeds/history/versions?limit=2&page=1", cookies.owner);
    expect(page2.body.data.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(page2.body.data.pagination.hasNextPage).toBe(false);
  });

  it("starts the history of a feed that had none with the config it replaces", async () => {
    await insertFeed(server.db, { id: "seeded", createdBy: ownerKey.implicitAccountId });
    const config = { id: "seeded", name: "Seeded, now saved", description: "About it" };
    expect((await send("PUT", "/api/feeds/seeded", cookies.owner, config)).status).toBe(200);
    const list = await send("GET", "/api/feeds/seeded/versions", cookies.owner);
    expect(list.body.data.items.map((v: { version: number; kind: string }) => [v.version, v.kind])).toEqual([
      [2, "saved"],
      [1, "created"],
    ]);
    expect(list.body.data.items[1].savedBy).toBe(ownerKey.implicitAccountId);
    // Two saves racing take their turns: consecutive versions, none lost.
    await Promise.all(
      ["A", "B", "C"].map((suffix) =>
        send("PUT", "/api/feeds/seeded", cookies.owner, { ...config, name: `Seeded ${suffix}` }),
      ),
    );
    const [row] = await queryRows<{ versions: number; highest: number }>(
      server.db,
      sql`select count(*)::int as versions, max(version)::int as highest from feed_config_versions
        where feed_id = 'seeded'`,
    );
    expect(row).toEqual({ versions: 5, highest: 5 });
  });

  it("is for the feed's owner and admins; a restore takes the checks of a save", async () => {
    for (const [cookie, status] of [
      [null, 401],
      [cookies.stranger, 403],
      [cookies.approver, 403],
    ] as const) {
      expect((await send("GET", "/api/feeds/history/versions", cookie)).status).toBe(status);
      expect((await send("GET", "/api/feeds/history/versions/1", cookie)).status).toBe(status);
      expect((await send("POST", "/api/feeds/history/versions/1/restore", cookie, {})).status).toBe(status);
    }
    expect((await send("GET", "/api/feeds/nosuch/versions", cookies.owner)).status).toBe(404);
    expect((await send("GET", "/api/feeds/history/versions/99", cookies.owner)).status).toBe(404);
    expect((await send("POST", "/api/feeds/history/versions/99/restore", cookies.owner, {})).status).toBe(
      404,
    );
    for (const bad of ["versions/0", "versions/x", "versions?limit=101", "versions?page=-1"]) {
      const answer = await send("GET", `/api/feeds/history/${bad}`, cookies.owner);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("VALIDATION_ERROR");
    }
    // A version that no longer passes today's checks is refused, and nothing is saved.
    await server.db.execute(
      sql`update feed_config_versions set config = jsonb_set(config, '{name}', '""') where feed_id = 'history' and version = 2`,
    );
    const refused = await send("POST", "/api/feeds/history/versions/2/restore", cookies.owner, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("Version 2 is not valid today: name: Feed name is required");
    const list = await send("GET", "/api/feeds/history/versions?limit=1", cookies.owner);
    expect(list.body.data.pagination.totalCount).toBe(4);
  });
});
