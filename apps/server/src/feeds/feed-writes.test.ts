import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { feeds, moderationHistory, submissionFeeds, submissions } from "../db/schema.ts";

let server: TestServer;
const ownerKey = newKey();
const adminKey = newKey();
const superKey = newKey();
const cookies: Record<string, string> = {};

const legacyConfig = {
  id: "legacy",
  name: "Legacy Feed",
  description: "Written by curate.fun",
  image: "https://example.com/legacy.png",
  enabled: true,
  pollingIntervalMs: 60000,
  moderation: { approvers: { twitter: ["mod_one"] }, blacklist: { twitter: [] } },
  sources: [
    { plugin: "@curatedotfun/twitter-source", config: { apiKey: "{{TWITTER_API_KEY}}" }, search: [] },
  ],
  outputs: {
    stream: {
      enabled: true,
      transform: [
        { plugin: "@curatedotfun/object-transform", config: { mappings: { content: "{{content}}" } } },
      ],
      distribute: [
        {
          plugin: "@curatedotfun/telegram",
          config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", channelId: "@legacy" },
        },
      ],
    },
    recap: [{ id: "weekly", name: "Weekly", enabled: false, schedule: "0 0 * * 0" }],
  },
  customField: { keep: ["me"] },
};

beforeAll(async () => {
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    SUPER_ADMIN_ACCOUNTS: superKey.implicitAccountId,
  });
  cookies.owner = (await signIn(server, ownerKey)).cookie;
  cookies.admin = (await signIn(server, adminKey)).cookie;
  cookies.super = (await signIn(server, superKey)).cookie;
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

describe("POST /api/feeds", () => {
  it("creates a feed owned by the signed-in user and keeps an older tool's config unchanged", async () => {
    const { status, body } = await send("POST", "/api/feeds", cookies.owner, legacyConfig);
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      id: "legacy",
      name: "Legacy Feed",
      image: "https://example.com/legacy.png",
      createdBy: ownerKey.implicitAccountId,
    });
    expect(body.data.config).toEqual(legacyConfig);
    expect((await server.json("/api/feeds/legacy")).body.data.config).toEqual(legacyConfig);
  });

  it("is a 409 when the id is taken (the hidden `all` feed included)", async () => {
    const again = await send("POST", "/api/feeds", cookies.stranger, { ...legacyConfig, name: "Mine now" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Feed "legacy" already exists.');
    expect((await server.json("/api/feeds/legacy")).body.data.name).toBe("Legacy Feed");
    expect((await send("POST", "/api/feeds", cookies.owner, { ...legacyConfig, id: "all" })).status).toBe(
      409,
    );
  });

  it.each([
    [{ ...legacyConfig, id: "has space" }, "id"],
    [{ ...legacyConfig, name: "" }, "name"],
    [{ ...legacyConfig, description: "" }, "description"],
    [{ ...legacyConfig, image: "not-a-url" }, "image"],
    [{ ...legacyConfig, image: "javascript:alert(1)" }, "image"],
    [{ ...legacyConfig, name: "n".repeat(101) }, "name"],
    [{ ...legacyConfig, description: "d".repeat(2001) }, "description"],
    [
      {
        ...legacyConfig,
        sources: [{ plugin: "x", search: Array.from({ length: 11 }, () => ({ query: "q" })) }],
      },
      "sources.0.search",
    ],
    [{ ...legacyConfig, customField: { blob: "b".repeat(70_000) } }, ""],
    [{ ...legacyConfig, pollingIntervalMs: 999 }, "pollingIntervalMs"],
    [{ ...legacyConfig, pollingIntervalMs: 1500.5 }, "pollingIntervalMs"],
    [
      { ...legacyConfig, sources: [{ plugin: "x", search: [{ pageSize: 0 }] }] },
      "sources.0.search.0.pageSize",
    ],
    [{ ...legacyConfig, ingestion: { schedule: "" } }, "ingestion.schedule"],
    [{ ...legacyConfig, ingestion: { schedule: "every day at noon" } }, "ingestion.schedule"],
    [{ ...legacyConfig, ingestion: { schedule: "61 * * * *" } }, "ingestion.schedule"],
    [
      { ...legacyConfig, outputs: { stream: { enabled: true, transform: [{ plugin: "@nobody/unknown" }] } } },
      "outputs.stream.transform.0.plugin",
    ],
    [
      {
        ...legacyConfig,
        outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/object-transform" }] } },
      },
      "outputs.stream.distribute.0.plugin",
    ],
    [
      {
        ...legacyConfig,
        outputs: {
          stream: {
            enabled: true,
            transform: [{ plugin: "@curate/ai-transform", config: { apiKey: "{{K}}" } }],
          },
        },
      },
      "outputs.stream.transform.0.config.prompt",
    ],
    [
      {
        ...legacyConfig,
        outputs: {
          stream: {
            enabled: true,
            distribute: [
              {
                plugin: "@curate/rss",
                transform: [{ plugin: "@curatedotfun/object-transform", config: { mappings: 3 } }],
              },
            ],
          },
        },
      },
      "outputs.stream.distribute.0.transform.0.config.mappings",
    ],
    [
      {
        ...legacyConfig,
        outputs: {
          stream: {
            enabled: true,
            distribute: [
              { plugin: "@curate/webhook", config: { url: "file:///etc/passwd", secret: "{{S}}" } },
            ],
          },
        },
      },
      "outputs.stream.distribute.0.config.url",
    ],
  ])("refuses an invalid config with a 400 naming %s's field", async (config, path) => {
    const { status, body } = await send("POST", "/api/feeds", cookies.owner, {
      ...config,
      id: config.id === "legacy" ? "fresh" : config.id,
    });
    expect(status).toBe(400);
    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect((await server.json("/api/feeds/fresh")).status).toBe(404);
  });

  it.each([
    [
      "a raw Telegram token",
      { botToken: "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_x" },
      "outputs.stream.distribute.0.config.botToken",
    ],
    [
      "a secret under a credential key",
      { apiKey: "abc123plaintext" },
      "outputs.stream.distribute.0.config.apiKey",
    ],
    [
      "a JWT anywhere",
      {
        note: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      },
      "outputs.stream.distribute.0.config.note",
    ],
    [
      "a NEAR private key under keyPair",
      { keyPair: `ed25519:${"3".repeat(88)}` },
      "outputs.stream.distribute.0.config.keyPair",
    ],
    [
      "a Discord webhook URL under any key",
      { target: "https://discord.com/api/webhooks/1187342915606147082/AbCdEf-ghIJkl_mnop" },
      "outputs.stream.distribute.0.config.target",
    ],
    ["a Notion ntn_ token", { note: `ntn_${"a".repeat(40)}` }, "outputs.stream.distribute.0.config.note"],
    [
      "an Authorization header",
      { headers: { Authorization: "Bearer abcdef123456" } },
      "outputs.stream.distribute.0.config.headers.Authorization",
    ],
    ["a numeric password", { password: 12345678 }, "outputs.stream.distribute.0.config.password"],
    [
      "a secret inside a list",
      { apiKeys: ["{{OK_ONE}}", "rawvalue"] },
      "outputs.stream.distribute.0.config.apiKeys.1",
    ],
    [
      "a database URL with a password",
      { target: "postgres://admin:hunter2@db.example:5432/prod" },
      "outputs.stream.distribute.0.config.target",
    ],
    [
      "a Supabase secret key",
      { key: `sb_secret_${"b".repeat(30)}` },
      "outputs.stream.distribute.0.config.key",
    ],
  ])("refuses %s in a config", async (_label, config, path) => {
    const withSecret = {
      ...legacyConfig,
      id: "secretive",
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            {
              plugin: "@curate/telegram",
              config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@secretive_feed", ...config },
            },
          ],
        },
      },
    };
    const { status, body } = await send("POST", "/api/feeds", cookies.owner, withSecret);
    expect(status).toBe(400);
    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect((await server.json("/api/feeds/secretive")).status).toBe(404);
  });

  it("needs a session", async () => {
    expect((await send("POST", "/api/feeds", null, { ...legacyConfig, id: "anon" })).status).toBe(401);
  });
});

describe("feed ids are lower-cased, not refused", () => {
  it('stores "ToDelete1" as "todelete1" and finds it by either spelling', async () => {
    const { status, body } = await send("POST", "/api/feeds", cookies.owner, {
      ...legacyConfig,
      id: "ToDelete1",
      name: "To delete",
    });
    expect(status).toBe(201);
    expect(body.data.id).toBe("todelete1");
    expect(body.data.config.id).toBe("todelete1");
    expect((await server.json("/api/feeds/ToDelete1")).body.data.id).toBe("todelete1");
    const renamed = await send("PUT", "/api/feeds/todelete1", cookies.owner, {
      ...body.data.config,
      id: "TODELETE1",
      name: "Still here",
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.config.id).toBe("todelete1");
    expect((await send("DELETE", "/api/feeds/todelete1", cookies.owner)).status).toBe(200);
  });
});

describe("PUT /api/feeds/{id} with If-Match", () => {
  const put = (config: unknown, ifMatch?: string) =>
    server.json("/api/feeds/concurrent", {
      method: "PUT",
      headers: { ...sessionHeaders(server, cookies.owner), ...(ifMatch ? { "If-Match": ifMatch } : {}) },
      body: JSON.stringify(config),
    });

  it("saves when the feed is unchanged since it was read, and is a 409 for the second of two editors", async () => {
    const created = await send("POST", "/api/feeds", cookies.owner, { ...legacyConfig, id: "concurrent" });
    const opened = created.body.data;
    const first = await put({ ...opened.config, name: "First tab" }, opened.updatedAt);
    expect(first.status).toBe(200);
    const second = await put({ ...opened.config, name: "Second tab" }, opened.updatedAt);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("CONFLICT");
    expect(second.body.error.message).toContain("changed since you opened it");
    expect((await server.json("/api/feeds/concurrent")).body.data.name).toBe("First tab");
    // With the newer version in hand the save goes through; without a precondition it always does.
    expect((await put({ ...opened.config, name: "Second tab" }, first.body.data.updatedAt)).status).toBe(200);
    expect((await put({ ...opened.config, name: "No precondition" })).status).toBe(200);
  });

  it("is a 400 for an If-Match that is no date and a 404 for an unknown feed", async () => {
    const current = (await server.json("/api/feeds/concurrent")).body.data;
    expect((await put(current.config, "yesterday")).status).toBe(400);
    const unknown = await server.json("/api/feeds/nosuchfeed", {
      method: "PUT",
      headers: { ...sessionHeaders(server, cookies.owner), "If-Match": current.updatedAt },
      body: JSON.stringify({ ...current.config, id: "nosuchfeed" }),
    });
    expect(unknown.status).toBe(404);
  });
});

describe("PUT /api/feeds/{id}", () => {
  it("replaces the config, so removed entries are gone, for the owner, admins and super admins", async () => {
    const trimmed = {
      ...legacyConfig,
      admins: [adminKey.implicitAccountId],
      sources: [],
      customField: undefined,
    };
    const { status, body } = await send("PUT", "/api/feeds/legacy", cookies.owner, trimmed);
    expect(status).toBe(200);
    expect(body.data.config.sources).toEqual([]);
    expect(body.data.config).not.toHaveProperty("customField");
    expect(body.data.admins).toEqual([adminKey.implicitAccountId]);

    const byAdmin = await send("PUT", "/api/feeds/legacy", cookies.admin, {
      ...trimmed,
      name: "Renamed by admin",
    });
    expect(byAdmin.status).toBe(200);
    const bySuper = await send("PUT", "/api/feeds/legacy", cookies.super, {
      ...trimmed,
      name: "Renamed by super",
    });
    expect(bySuper.body.data.name).toBe("Renamed by super");
  });

  it("is 403 for others, 404 for unknown feeds, 400 for an id change or a bad config", async () => {
    const current = (await server.json("/api/feeds/legacy")).body.data.config;
    expect(
      (await send("PUT", "/api/feeds/legacy", cookies.stranger, { ...current, name: "Hijack" })).status,
    ).toBe(403);
    expect((await send("PUT", "/api/feeds/nope", cookies.owner, { ...current, id: "nope" })).status).toBe(
      404,
    );
    expect((await send("PUT", "/api/feeds/legacy", cookies.owner, { ...current, id: "other" })).status).toBe(
      400,
    );
    expect((await send("PUT", "/api/feeds/legacy", cookies.owner, { ...current, name: "" })).status).toBe(
      400,
    );
    expect((await server.json("/api/feeds/legacy")).body.data.name).toBe("Renamed by super");
  });
});

describe("DELETE /api/feeds/{id}", () => {
  it("removes the feed with its links and history in one go, keeping posts still in other feeds", async () => {
    await insertFeed(server.db, { id: "doomed", createdBy: ownerKey.implicitAccountId });
    await insertFeed(server.db, { id: "survivor" });
    await insertSubmission(server.db, {
      tweetId: "only-doomed",
      feeds: [{ feedId: "doomed", status: "approved" }],
    });
    await insertSubmission(server.db, {
      tweetId: "shared",
      feeds: [
        { feedId: "doomed", status: "rejected" },
        { feedId: "survivor", status: "pending" },
      ],
    });
    expect((await send("DELETE", "/api/feeds/doomed", cookies.stranger)).status).toBe(403);
    const { status, body } = await send("DELETE", "/api/feeds/doomed", cookies.owner);
    expect(status).toBe(200);
    expect(body.data).toEqual({ id: "doomed", deleted: true });
    expect((await server.json("/api/feeds/doomed")).status).toBe(404);
    expect(
      await server.db.select().from(submissionFeeds).where(eq(submissionFeeds.feedId, "doomed")),
    ).toEqual([]);
    expect(
      await server.db.select().from(moderationHistory).where(eq(moderationHistory.feedId, "doomed")),
    ).toEqual([]);
    expect(await server.db.select().from(submissions).where(eq(submissions.tweetId, "only-doomed"))).toEqual(
      [],
    );
    const shared = await server.json("/api/submissions/single/shared");
    expect(shared.body.data.status).toBe("pending");
    expect(shared.body.data.feeds.map((f: { feedId: string }) => f.feedId)).toEqual(["survivor"]);
    expect((await send("DELETE", "/api/feeds/doomed", cookies.owner)).status).toBe(404);
  });
});

describe("the reserved feed `all`", () => {
  it("takes no write from anyone, super admins included, and stays as it was", async () => {
    await insertFeed(server.db, { id: "all", name: "All", createdBy: null });
    const config = { id: "all", name: "Taken over", description: "Mine" };
    const writes: Array<[string, string, unknown?]> = [
      ["PUT", "/api/feeds/all", config],
      ["PUT", "/api/feeds/ALL", config],
      ["DELETE", "/api/feeds/all"],
      ["PUT", "/api/feeds/all/secrets/TOKEN", { value: "secret" }],
      ["DELETE", "/api/feeds/all/secrets/TOKEN"],
      ["POST", "/api/feeds/all/versions/1/restore"],
      ["POST", "/api/feeds/all/config/test", { config }],
    ];
    for (const cookie of [cookies.super, cookies.owner, null]) {
      for (const [method, path, body] of writes) {
        const answer = await send(method, path, cookie, body);
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
        expect(answer.body.error).toEqual({ code: "NOT_FOUND", message: 'Feed "all" not found.' });
      }
    }
    const [row] = await server.db.select().from(feeds).where(eq(feeds.id, "all"));
    expect(row.name).toBe("All");
  });
});
