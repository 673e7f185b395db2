import { randomBytes } from "node:crypto";
import { FEED_SECRET_LIMITS } from "@curate/core";
import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { feedSecrets } from "../db/schema.ts";
import { feedSecretValues, keyIdOf, resealFeedSecrets } from "./secret-store.ts";

const VALUE = "123456789:AAH-a-token-that-must-never-come-back";
const silent = pino({ level: "silent" });
let server: TestServer;
const ownerKey = newKey();
let owner: string;
let stranger: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", WRITE_RATE_LIMIT_PER_MINUTE: "1000" });
  owner = (await signIn(server, ownerKey)).cookie;
  stranger = (await signIn(server)).cookie;
  for (const id of ["vault", "other", "capped", "doomed"]) {
    await insertFeed(server.db, { id, createdBy: ownerKey.implicitAccountId });
  }
});

afterAll(async () => {
  await server.close();
});

const put = (feedId: string, name: string, value: unknown, cookie = owner) =>
  server.json(`/api/feeds/${feedId}/secrets/${name}`, {
    method: "PUT",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify({ value }),
  });
const list = (feedId: string, cookie = owner) =>
  server.json(`/api/feeds/${feedId}/secrets`, { headers: sessionHeaders(server, cookie) });
const remove = (feedId: string, name: string, cookie = owner) =>
  server.json(`/api/feeds/${feedId}/secrets/${name}`, {
    method: "DELETE",
    headers: sessionHeaders(server, cookie),
  });

describe("a feed's secrets over the API", () => {
  it("stores a value it never returns: the answers carry the name and dates only", async () => {
    const added = await put("vault", "TELEGRAM_BOT_TOKEN", VALUE);
    expect(added.status).toBe(200);
    expect(added.body.message).toBe("Secret TELEGRAM_BOT_TOKEN added.");
    expect(Object.keys(added.body.data).sort()).toEqual(["createdAt", "name", "updatedAt"]);

    const replaced = await put("vault", "TELEGRAM_BOT_TOKEN", `${VALUE}-v2`);
    expect(replaced.body.message).toBe("Secret TELEGRAM_BOT_TOKEN replaced.");
    expect(Date.parse(replaced.body.data.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(added.body.data.updatedAt),
    );

    const listed = await list("vault");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { name: "TELEGRAM_BOT_TOKEN", createdAt: expect.any(String), updatedAt: replaced.body.data.updatedAt },
    ]);
    for (const answer of [added, replaced, listed]) expect(JSON.stringify(answer.body)).not.toContain("AAH-");
  });

  it("keeps the value sealed at rest, bound to its feed and name", async () => {
    await put("vault", "DISCORD_WEBHOOK", "https://discord.example/api/webhooks/1/secret-part");
    const [row] = await server.db
      .select()
      .from(feedSecrets)
      .where(and(eq(feedSecrets.feedId, "vault"), eq(feedSecrets.name, "DISCORD_WEBHOOK")));
    expect(row.sealed).not.toContain("secret-part");
    expect(Buffer.from(row.sealed, "base64").toString("utf8")).not.toContain("secret-part");

    // The same ciphertext copied to another feed, or under another name, does not open.
    await server.db.insert(feedSecrets).values([
      { feedId: "other", name: "DISCORD_WEBHOOK", sealed: row.sealed, keyId: row.keyId, createdBy: "x.near" },
      { feedId: "vault", name: "STOLEN", sealed: row.sealed, keyId: row.keyId, createdBy: "x.near" },
    ]);
    expect(await feedSecretValues(server.db, server.env.SECRETS_KEYS, "other", silent)).toEqual({});
    const vault = await feedSecretValues(server.db, server.env.SECRETS_KEYS, "vault", silent);
    expect(vault.DISCORD_WEBHOOK).toBe("https://discord.example/api/webhooks/1/secret-part");
    expect(vault).not.toHaveProperty("STOLEN");
    expect((await remove("vault", "STOLEN")).status).toBe(200);
  });

  it("deletes a secret, and says so when there is none by that name", async () => {
    await put("vault", "SHORT_LIVED", "value");
    const deleted = await remove("vault", "SHORT_LIVED");
    expect(deleted).toMatchObject({ status: 200, body: { data: { name: "SHORT_LIVED", deleted: true } } });
    expect((await list("vault")).body.data.map((s: { name: string }) => s.name)).not.toContain("SHORT_LIVED");
    const again = await remove("vault", "SHORT_LIVED");
    expect(again).toMatchObject({ status: 404, body: { success: false, error: { code: "NOT_FOUND" } } });
  });

  it("is for the feed's managers only", async () => {
    const anonymous = await server.json("/api/feeds/vault/secrets");
    expect(anonymous.status).toBe(401);
    for (const answer of [
      await list("vault", stranger),
      await put("vault", "MINE_NOW", "x", stranger),
      await remove("vault", "TELEGRAM_BOT_TOKEN", stranger),
    ]) {
      expect(answer).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    }
    expect((await list("nosuchfeed")).status).toBe(404);
    expect((await put("nosuchfeed", "A_NAME", "x")).status).toBe(404);
  });

  it("refuses names that are not placeholder names, empty values and oversized values", async () => {
    for (const [name, value] of [
      ["lower_case", "x"],
      ["1STARTS_WITH_DIGIT", "x"],
      [`A${"B".repeat(64)}`, "x"],
      ["EMPTY", ""],
      ["BLANK", "   "],
      ["HUGE", "x".repeat(FEED_SECRET_LIMITS.valueLength + 1)],
      ["NOT_TEXT", 42],
    ] as const) {
      const answer = await put("vault", name, value);
      expect(answer.status, name).toBe(400);
      expect(answer.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("holds at most the per-feed number of secrets, replacing one still works at the cap", async () => {
    for (let index = 0; index < FEED_SECRET_LIMITS.perFeed; index++) {
      expect((await put("capped", `SECRET_${index}`, `value ${index}`)).status).toBe(200);
    }
    const over = await put("capped", "ONE_TOO_MANY", "value");
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain(`at most ${FEED_SECRET_LIMITS.perFeed} secrets`);
    expect((await put("capped", "SECRET_0", "new value")).status).toBe(200);
  });

  it("goes with its feed when the feed is deleted", async () => {
    await put("doomed", "API_KEY", "value");
    const deleted = await server.request("/api/feeds/doomed", {
      method: "DELETE",
      headers: sessionHeaders(server, owner),
    });
    expect(deleted.status).toBe(200);
    expect(await server.db.select().from(feedSecrets).where(eq(feedSecrets.feedId, "doomed"))).toEqual([]);
  });
});

describe("rotating SECRETS_KEY", () => {
  it("re-seals what the previous key sealed, and a value no key opens is left out by name", async () => {
    await put("other", "ROTATED", "the value before and after");
    const previous = server.env.SECRETS_KEYS.current as Buffer;
    const next = randomBytes(32);
    const ring = { current: next, previous: [previous] };
    const result = await resealFeedSecrets(server.db, ring);
    expect(result.unreadable).toBe(1); // the copied ciphertext of the AAD test, which no key opens for "other"
    expect(result.resealed).toBeGreaterThan(0);
    const [row] = await server.db
      .select()
      .from(feedSecrets)
      .where(and(eq(feedSecrets.feedId, "other"), eq(feedSecrets.name, "ROTATED")));
    expect(row.keyId).toBe(keyIdOf(next));
    // Once rotated, the new key alone opens it; the old one alone does not.
    expect(await feedSecretValues(server.db, { current: next, previous: [] }, "other", silent)).toEqual({
      ROTATED: "the value before and after",
    });
    expect(await feedSecretValues(server.db, { current: previous, previous: [] }, "other", silent)).toEqual(
      {},
    );
  });
});

describe("a production server without SECRETS_KEY", () => {
  it("answers 503 to storing a secret instead of storing it unsealed", async () => {
    const production = await startTestServer({
      NODE_ENV: "production",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      LOG_SIGNING_KEY: randomBytes(32).toString("hex"),
      HOST: "127.0.0.1",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    });
    try {
      const key = newKey();
      const { cookie } = await signIn(production, key);
      await insertFeed(production.db, { id: "prod", createdBy: key.implicitAccountId });
      const answer = await production.json("/api/feeds/prod/secrets/API_KEY", {
        method: "PUT",
        headers: sessionHeaders(production, cookie),
        body: JSON.stringify({ value: "value" }),
      });
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ code: "UNAVAILABLE" });
      expect(answer.body.error.message).toContain("SECRETS_KEY");
      expect(await production.db.select().from(feedSecrets)).toEqual([]);
    } finally {
      await production.close();
    }
  });
});
