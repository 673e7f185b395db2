import { createHash } from "node:crypto";
import { API_SCOPES, API_TOKEN_PATTERN, type ApiScope } from "@curate/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { apiTokens } from "../db/schema.ts";

let server: TestServer;
const ownerKey = newKey();
let owner: string;
let other: string;

beforeAll(async () => {
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    WRITE_RATE_LIMIT_PER_MINUTE: "100000",
  });
  owner = (await signIn(server, ownerKey)).cookie;
  other = (await signIn(server)).cookie;
});

afterAll(() => server.close());

/** Makes a token through the app, as a signed-in person does in Settings. */
async function makeToken(cookie: string, scopes: readonly ApiScope[], extra: Record<string, unknown> = {}) {
  const { status, body } = await server.json("/api/users/me/api-tokens", {
    method: "POST",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify({ name: `script ${scopes.join("+")}`, scopes, ...extra }),
  });
  expect(status).toBe(201);
  return body.data as { token: { id: string; hint: string; status: string }; secret: string };
}

/** A request as a script sends it: the token, JSON, no cookie and no Origin unless given. */
const withToken = (
  secret: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
  headers = {},
) =>
  server.json(path, {
    method: init.method ?? "GET",
    headers: {
      Authorization: `Bearer ${secret}`,
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe("making and keeping tokens", () => {
  it("shows the secret once and keeps only its SHA-256", async () => {
    const { token, secret } = await makeToken(owner, ["read"], { expiresInDays: 30 });
    expect(secret).toMatch(API_TOKEN_PATTERN);
    expect(token.hint).toBe(`${secret.slice(0, "curate_pat_".length + 4)}…`);
    expect(token.status).toBe("active");

    const [row] = await server.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.secretHash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secret.slice("curate_pat_".length));
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(30 * 86_400_000);

    const list = await server.json("/api/users/me/api-tokens", { headers: sessionHeaders(server, owner) });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((item: { id: string }) => item.id)).toContain(token.id);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice("curate_pat_".length));
    // Another account sees none of them.
    const others = await server.json("/api/users/me/api-tokens", { headers: sessionHeaders(server, other) });
    expect(others.body.data.items).toEqual([]);
  });

  it("refuses bad requests with the field's problem", async () => {
    for (const body of [
      { name: "", scopes: ["read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: ["read", "read"] },
      { name: "x", scopes: ["read"], expiresInDays: 0 },
      { name: "x", scopes: ["read"], expiresInDays: 10_000 },
      { name: "x".repeat(81), scopes: ["read"] },
    ]) {
      const { status, body: answer } = await server.json("/api/users/me/api-tokens", {
        method: "POST",
        headers: sessionHeaders(server, owner),
        body: JSON.stringify(body),
      });
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("holds at most 25 live tokens per account; revoked ones do not count", async () => {
    const { cookie } = await signIn(server);
    const made = [];
    for (let i = 0; i < 25; i++) made.push(await makeToken(cookie, ["read"]));
    const refused = await server.json("/api/users/me/api-tokens", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify({ name: "one more", scopes: ["read"] }),
    });
    expect(refused.status).toBe(409);
    await server.json(`/api/users/me/api-tokens/${made[0].token.id}`, {
      method: "DELETE",
      headers: sessionHeaders(server, cookie),
    });
    await makeToken(cookie, ["read"]);
  });
});

describe("using a token", () => {
  it("acts as its owner, notes when it was last used, and ignores cookies entirely", async () => {
    const { token, secret } = await makeToken(owner, ["read"]);
    const me = await withToken(secret, "/api/users/me");
    expect(me.status).toBe(200);
    expect(me.body.data.nearAccountId).toBe(ownerKey.implicitAccountId);
    const [row] = await server.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.lastUsedAt).not.toBeNull();

    // Another account's session cookie beside the token changes nothing.
    const mixed = await withToken(secret, "/api/users/me", {}, { Cookie: other });
    expect(mixed.body.data.nearAccountId).toBe(ownerKey.implicitAccountId);
    // A refused token is not rescued by a good cookie.
    const bad = await withToken(`curate_pat_${"A".repeat(43)}`, "/api/users/me", {}, { Cookie: owner });
    expect(bad.status).toBe(401);
  });

  it("leaves other Authorization schemes (a proxy's Basic auth) to the session cookie", async () => {
    const basic = { Authorization: "Basic dXNlcjpwYXNz" };
    const me = await server.json("/api/users/me", { headers: { ...basic, Cookie: owner } });
    expect(me.status).toBe(200);
    expect(me.body.data.nearAccountId).toBe(ownerKey.implicitAccountId);
    expect((await server.json("/api/users/me", { headers: basic })).status).toBe(401);
  });

  it("changes things without an Origin header (no CSRF check), and from any Origin", async () => {
    const { secret } = await makeToken(owner, ["manage"]);
    const plain = await withToken(secret, "/api/users/me", { method: "PATCH", body: { profileImage: null } });
    expect(plain.status).toBe(200);
    const foreign = await withToken(
      secret,
      "/api/users/me",
      { method: "PATCH", body: { profileImage: null } },
      { Origin: "https://elsewhere.example" },
    );
    expect(foreign.status).toBe(200);
  });

  it("refuses unknown, malformed, revoked and expired tokens with a 401 saying which", async () => {
    const cases: Array<[string, string]> = [
      [`curate_pat_${"B".repeat(43)}`, "This API token is not valid."],
      ["curate_pat_short", 'Send the API token as "Authorization: Bearer curate_pat_…".'],
    ];
    const revoked = await makeToken(owner, ["read"]);
    const revoke = await server.json(`/api/users/me/api-tokens/${revoked.token.id}`, {
      method: "DELETE",
      headers: sessionHeaders(server, owner),
    });
    expect(revoke.body.data.status).toBe("revoked");
    cases.push([revoked.secret, "This API token was revoked."]);

    const expired = await makeToken(owner, ["read"], { expiresInDays: 1 });
    await server.db
      .update(apiTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiTokens.id, expired.token.id));
    cases.push([expired.secret, "This API token has expired."]);

    for (const [secret, message] of cases) {
      const { status, body, headers } = await withToken(secret, "/api/feeds");
      expect(status, message).toBe(401);
      expect(body.error).toMatchObject({ code: "UNAUTHENTICATED", message });
      expect(headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
    const empty = await server.json("/api/feeds", { headers: { Authorization: "Bearer" } });
    expect(empty.status).toBe(401);

    const list = await server.json("/api/users/me/api-tokens", { headers: sessionHeaders(server, owner) });
    const statuses = Object.fromEntries(
      list.body.data.items.map((item: { id: string; status: string }) => [item.id, item.status]),
    );
    expect(statuses[revoked.token.id]).toBe("revoked");
    expect(statuses[expired.token.id]).toBe("expired");
  });

  it("cannot make, list or revoke tokens, nor sign in or out, whatever its scopes", async () => {
    const { token, secret } = await makeToken(owner, API_SCOPES);
    const attempts = [
      withToken(secret, "/api/users/me/api-tokens", {
        method: "POST",
        body: { name: "x", scopes: ["read"] },
      }),
      withToken(secret, "/api/users/me/api-tokens"),
      withToken(secret, "/api/users/me/api-tokens/activity"),
      withToken(secret, `/api/users/me/api-tokens/${token.id}`, { method: "DELETE" }),
      withToken(secret, "/api/auth/logout", { method: "POST" }),
      withToken(secret, "/api/auth/initiate-login", { method: "POST", body: { accountId: "a.near" } }),
    ];
    for (const { status, body } of await Promise.all(attempts)) {
      expect(status).toBe(403);
      expect(body.error.message).toBe("API tokens cannot do this; sign in to Curate in the browser instead.");
    }
    const [row] = await server.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.revokedAt).toBeNull();
  });

  it("cannot revoke another account's token", async () => {
    const { token, secret } = await makeToken(other, ["read"]);
    const { status } = await server.json(`/api/users/me/api-tokens/${token.id}`, {
      method: "DELETE",
      headers: sessionHeaders(server, owner),
    });
    expect(status).toBe(404);
    expect((await withToken(secret, "/api/users/me")).status).toBe(200);
  });
});

describe("attribution", () => {
  it('says "via API token" in the public log, and names the token only in its owner\'s activity', async () => {
    await insertFeed(server.db, { id: "scripted", createdBy: ownerKey.implicitAccountId });
    await insertSubmission(server.db, { tweetId: "901", feeds: [{ feedId: "scripted" }] });
    await insertSubmission(server.db, { tweetId: "902", feeds: [{ feedId: "scripted" }] });
    const { token, secret } = await makeToken(owner, ["read", "moderate"]);

    const byToken = await withToken(secret, "/api/moderate", {
      method: "POST",
      body: { submissionId: "901", feedId: "scripted", action: "approve" },
    });
    expect(byToken.status).toBe(200);
    const bySession = await server.json("/api/moderate", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ submissionId: "902", feedId: "scripted", action: "reject" }),
    });
    expect(bySession.status).toBe(200);

    const log = await server.json("/api/feeds/scripted/log?order=oldest");
    const decisions = log.body.data.items.filter((entry: { action: string }) => entry.action !== "genesis");
    expect(decisions.map((entry: { action: string; via: string }) => [entry.action, entry.via])).toEqual([
      ["approve", "api_token"],
      ["reject", "app"],
    ]);
    expect(JSON.stringify(log.body)).not.toContain(token.id);
    const download = await (await server.request("/api/feeds/scripted/log/download")).text();
    expect(download).toContain('"via":"api_token"');
    expect(download).not.toContain(token.id);
    const activity = await server.json(`/api/activity/users/${ownerKey.implicitAccountId}`);
    expect(JSON.stringify(activity.body)).not.toContain(token.id);

    const mine = await server.json("/api/users/me/api-tokens/activity", {
      headers: sessionHeaders(server, owner),
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data.items[0]).toMatchObject({
      tokenId: token.id,
      tokenName: "script read+moderate",
      method: "POST",
      route: "/moderate",
      status: 200,
    });
    // Only changes are noted, and nobody else sees them.
    expect(mine.body.data.items.filter((use: { tokenId: string }) => use.tokenId === token.id)).toHaveLength(
      1,
    );
    const others = await server.json("/api/users/me/api-tokens/activity", {
      headers: sessionHeaders(server, other),
    });
    expect(others.body.data.items).toEqual([]);
  });
});

describe("the secret scan", () => {
  it("refuses a feed config holding a token", async () => {
    const { secret } = await makeToken(owner, ["read"]);
    const { status, body } = await server.json("/api/feeds", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({
        id: "leaky",
        name: "Leaky",
        description: "Holds a token",
        outputs: {
          stream: { enabled: true, distribute: [{ plugin: "@curate/rss", config: { note: secret } }] },
        },
      }),
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body.error)).toContain("a Curate API token");
  });
});

describe("rate limits", () => {
  let limited: TestServer;
  let cookie: string;

  beforeAll(async () => {
    limited = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "3", WRITE_RATE_LIMIT_PER_MINUTE: "3" });
    ({ cookie } = await signIn(limited));
  });
  afterAll(() => limited.close());

  it("spends the account's one write budget, whether a session or a token writes", async () => {
    const made = await limited.json("/api/users/me/api-tokens", {
      method: "POST",
      headers: sessionHeaders(limited, cookie),
      body: JSON.stringify({ name: "bot", scopes: ["manage"] }),
    });
    expect(made.status).toBe(201);
    const patch = () =>
      limited.json("/api/users/me", {
        method: "PATCH",
        headers: { Authorization: `Bearer ${made.body.data.secret}`, "Content-Type": "application/json" },
        body: JSON.stringify({ profileImage: null }),
      });
    expect((await patch()).status).toBe(200);
    expect((await patch()).status).toBe(200);
    const refused = await patch();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("paces refused tokens from one address like sign-in attempts", async () => {
    const attempt = () =>
      limited.json("/api/feeds", { headers: { Authorization: `Bearer curate_pat_${"C".repeat(43)}` } });
    // Refusals share the address's sign-in budget (three a minute here, some spent by signing in above).
    const statuses: number[] = [];
    let refused = await attempt();
    for (; refused.status === 401 && statuses.length < 3; refused = await attempt())
      statuses.push(refused.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(
      "Too many refused API tokens from this address. Please wait a minute.",
    );
  });
});
