import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJson, startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey, signToken, startFakeNearRpc } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { authRequests, sessions, users } from "../db/schema.ts";

let server: TestServer;
let rpc: Awaited<ReturnType<typeof startFakeNearRpc>>;

beforeAll(async () => {
  rpc = await startFakeNearRpc();
  server = await startTestServer({ NEAR_RPC_URL: rpc.url, AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
});

afterAll(async () => {
  await server.close();
  await rpc.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

async function initiate(accountId: string) {
  const response = await post("/api/auth/initiate-login", { accountId });
  expect(response.status).toBe(200);
  return (await readJson(response)).data as { nonce: string; recipient: string; message: string };
}

async function userCount() {
  const [row] = await server.db.select({ n: count() }).from(users);
  return row.n;
}

async function expectRefused(response: Response, reason: RegExp) {
  const body = await readJson(response);
  expect(response.status).toBe(401);
  expect(body).toMatchObject({ success: false, error: { code: "UNAUTHENTICATED" } });
  expect(body.error.message).toMatch(reason);
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe("sign-in with a NEAR key", () => {
  it("issues a 32-byte single-use nonce for the configured recipient and creates no user", async () => {
    const before = await userCount();
    const key = newKey();
    const { nonce, recipient, message } = await initiate(key.implicitAccountId);
    expect(Buffer.from(nonce, "base64")).toHaveLength(32);
    expect(recipient).toBe(server.env.AUTH_RECIPIENT);
    expect(message).toBe("Authorize Curate");
    expect(await userCount()).toBe(before);
  });

  it("verifies an implicit account's signature, creates the user and sets an HttpOnly session cookie", async () => {
    const key = newKey();
    const accountId = key.implicitAccountId;
    const { nonce, recipient } = await initiate(accountId);
    const response = await post("/api/auth/verify-login", {
      accountId,
      token: signToken({ key, accountId, nonce, recipient }),
    });
    expect(response.status).toBe(200);
    expect((await readJson(response)).data).toMatchObject({ nearAccountId: accountId });
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^curate_session=[^;]+/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(cookie).not.toMatch(/Secure/);

    const me = await server.json("/api/users/me", { headers: { Cookie: cookie.split(";")[0] } });
    expect(me.status).toBe(200);
    expect(me.body.data.nearAccountId).toBe(accountId);
    const [stored] = await server.db.select().from(sessions).innerJoin(users, eq(users.id, sessions.userId));
    expect(stored.sessions.idHash).not.toContain(cookie.split("=")[1].split(".")[0]);
  });

  it("checks a named account's key over NEAR RPC: full access only", async () => {
    const key = newKey();
    rpc.grant("alice.near", key);
    const { cookie } = await signIn(server, key, "alice.near");
    expect(
      (await server.json("/api/users/me", { headers: { Cookie: cookie } })).body.data.nearAccountId,
    ).toBe("alice.near");
    const lastCall = rpc.calls.at(-1) as { method: string; params: Record<string, string> };
    expect(lastCall).toMatchObject({
      method: "query",
      params: { request_type: "view_access_key", account_id: "alice.near", public_key: key.publicKey },
    });

    const limited = newKey();
    rpc.grant("bob.near", limited, {
      FunctionCall: { allowance: null, receiver_id: "x.near", method_names: [] },
    });
    const { nonce, recipient } = await initiate("bob.near");
    await expectRefused(
      await post("/api/auth/verify-login", {
        accountId: "bob.near",
        token: signToken({ key: limited, accountId: "bob.near", nonce, recipient }),
      }),
      /key does not belong/,
    );
  });

  it.each([
    ["a bad signature", { tamper: true }, /signature does not match/],
    ["a wrong recipient", { recipient: "evil.example" }, /another recipient/],
    ["a message that is not an authorization", { message: "Send 100 NEAR" }, /not an authorization/],
    [
      "an unknown nonce",
      { nonce: Buffer.alloc(32, 7).toString("base64") },
      /unknown, expired or already used/,
    ],
  ])("refuses %s with a 401 and no session", async (_label, override, reason) => {
    const key = newKey();
    const accountId = key.implicitAccountId;
    const started = await initiate(accountId);
    const before = await userCount();
    const token = signToken({ key, accountId, ...started, ...override });
    await expectRefused(await post("/api/auth/verify-login", { accountId, token }), reason);
    expect(await userCount()).toBe(before);
  });

  it("refuses a replayed nonce", async () => {
    const key = newKey();
    const accountId = key.implicitAccountId;
    const { nonce, recipient } = await initiate(accountId);
    const token = signToken({ key, accountId, nonce, recipient });
    expect((await post("/api/auth/verify-login", { accountId, token })).status).toBe(200);
    await expectRefused(await post("/api/auth/verify-login", { accountId, token }), /already used/);
  });

  it("refuses an expired nonce", async () => {
    const key = newKey();
    const accountId = key.implicitAccountId;
    const { nonce, recipient } = await initiate(accountId);
    await server.db
      .update(authRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authRequests.nonce, nonce));
    await expectRefused(
      await post("/api/auth/verify-login", {
        accountId,
        token: signToken({ key, accountId, nonce, recipient }),
      }),
      /expired/,
    );
  });

  it("refuses a key that does not own the account", async () => {
    const owner = newKey();
    const thief = newKey();
    const accountId = owner.implicitAccountId;
    const { nonce, recipient } = await initiate(accountId);
    await expectRefused(
      await post("/api/auth/verify-login", {
        accountId,
        token: signToken({ key: thief, accountId, nonce, recipient }),
      }),
      /key does not belong/,
    );
    const { nonce: n2, recipient: r2 } = await initiate("carol.near");
    await expectRefused(
      await post("/api/auth/verify-login", {
        accountId: "carol.near",
        token: signToken({ key: thief, accountId: "carol.near", nonce: n2, recipient: r2 }),
      }),
      /key does not belong/,
    );
  });

  it("answers 503 UNAVAILABLE, never a refusal, when NEAR RPC cannot say whose the key is", async () => {
    const key = newKey();
    rpc.grant("dave.near", key);
    try {
      for (const mode of ["http-500", "rpc-internal"] as const) {
        rpc.fail(mode);
        const { nonce, recipient } = await initiate("dave.near");
        const response = await post("/api/auth/verify-login", {
          accountId: "dave.near",
          token: signToken({ key, accountId: "dave.near", nonce, recipient }),
        });
        expect(response.status, mode).toBe(503);
        expect((await readJson(response)).error).toMatchObject({
          code: "UNAVAILABLE",
          message: expect.stringMatching(/NEAR network could not be reached/),
        });
        expect(response.headers.getSetCookie()).toEqual([]);
      }
    } finally {
      rpc.fail(null);
    }
    const unreachable = await startTestServer({
      NEAR_RPC_URL: "http://127.0.0.1:9",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    });
    try {
      const started = await unreachable.json("/api/auth/initiate-login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ accountId: "dave.near" }),
      });
      const response = await unreachable.request("/api/auth/verify-login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          accountId: "dave.near",
          token: signToken({ key, accountId: "dave.near", ...started.body.data }),
        }),
      });
      expect(response.status).toBe(503);
    } finally {
      await unreachable.close();
    }
  });

  it("refuses a token for another account and a malformed token", async () => {
    const key = newKey();
    const { nonce, recipient } = await initiate(key.implicitAccountId);
    const token = signToken({ key, accountId: key.implicitAccountId, nonce, recipient });
    await expectRefused(
      await post("/api/auth/verify-login", { accountId: "other.near", token }),
      /another account/,
    );
    await expectRefused(
      await post("/api/auth/verify-login", { accountId: "other.near", token: "bm90IGEgdG9rZW4=" }),
      /malformed/,
    );
  });

  it("validates the request bodies", async () => {
    for (const body of [{}, { accountId: "" }, { accountId: "UPPER.near" }, { accountId: "a".repeat(65) }]) {
      const response = await post("/api/auth/initiate-login", body);
      expect(response.status).toBe(400);
      expect((await readJson(response)).error.code).toBe("VALIDATION_ERROR");
    }
    const broken = await server.request("/api/auth/initiate-login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect((await readJson(broken)).error.code).toBe("VALIDATION_ERROR");
  });
});

describe("sessions", () => {
  it("is 401 without a session, with the spec's message", async () => {
    const me = await server.json("/api/users/me");
    expect(me.status).toBe(401);
    expect(me.body.error).toEqual({
      code: "UNAUTHENTICATED",
      message: "User not authenticated or account ID missing.",
    });
  });

  it("refuses forged and unknown cookies", async () => {
    const { cookie } = await signIn(server);
    const [name, value] = cookie.split("=");
    const [id] = value.split(".");
    for (const forged of [`${name}=${id}.AAAA`, `${name}=${id}`, `${name}=x.y.z`]) {
      expect((await server.json("/api/users/me", { headers: { Cookie: forged } })).status).toBe(401);
    }
  });

  it("revokes the session on logout and clears the cookie", async () => {
    const { cookie } = await signIn(server);
    const out = await server.request("/api/auth/logout", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
    });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/curate_session=;/);
    expect((await server.json("/api/users/me", { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it("expires sessions after their lifetime", async () => {
    const { cookie, accountId } = await signIn(server);
    const [user] = await server.db.select().from(users).where(eq(users.nearAccountId, accountId));
    await server.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(sessions.userId, user.id));
    expect((await server.json("/api/users/me", { headers: { Cookie: cookie } })).status).toBe(401);
  });
});

describe("rate limiting", () => {
  it("answers 429 in the envelope past the per-minute limit of the auth endpoints", async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await limited.request("/api/auth/initiate-login", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ accountId: "alice.near" }),
        });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await readJson(last as Response)).toMatchObject({
        success: false,
        statusCode: 429,
        error: { code: "RATE_LIMITED" },
      });
      expect((await limited.json("/api/feeds")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
