import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { createReadCache } from "./read-cache.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ READ_CACHE_TTL_MS: "60000", AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  await insertFeed(server.db, { id: "ai" });
  await insertSubmission(server.db, { tweetId: "1", feeds: [{ feedId: "ai" }] });
});

afterAll(() => server.close());

describe("the public read cache", () => {
  it("answers repeated list reads from memory", async () => {
    const first = await server.request("/api/submissions");
    expect(first.headers.get("x-cache")).toBeNull();
    await insertSubmission(server.db, { tweetId: "2", feeds: [{ feedId: "ai" }] });
    const second = await server.request("/api/submissions");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await second.json()).toEqual(await first.json());
  });

  it("is cleared by any successful write through the API, so writers read their changes", async () => {
    const { cookie } = await signIn(server);
    const logout = await server.request("/api/auth/logout", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
    });
    expect(logout.status).toBe(200);
    const after = await server.json("/api/submissions");
    expect(after.headers.get("x-cache")).toBeNull();
    expect(after.body.data.pagination.totalCount).toBe(2);
  });

  it("never keeps an answer meant for one viewer: a quarantined feed read by its owner", async () => {
    const owner = newKey();
    const { cookie } = await signIn(server, owner);
    await insertFeed(server.db, {
      id: "leaked",
      createdBy: owner.implicitAccountId,
      secretFindings: [
        { path: "signer", message: "This looks like a NEAR private key; use a {{PLACEHOLDER}} instead." },
      ],
    });
    const mine = await server.request("/api/feeds/leaked", { headers: sessionHeaders(server, cookie) });
    expect(mine.status).toBe(200);
    const anonymous = await server.request("/api/feeds/leaked");
    expect(anonymous.headers.get("x-cache")).toBeNull();
    expect(anonymous.status).toBe(404);
  });

  it("never caches per-user answers", async () => {
    await server.request("/api/feeds/ai/can-moderate");
    expect((await server.request("/api/feeds/ai/can-moderate")).headers.get("x-cache")).toBeNull();
    await server.request("/api/users/me");
    expect((await server.request("/api/users/me")).headers.get("x-cache")).toBeNull();
  });
});

describe("the read cache's bounds", () => {
  it("keys on the parameters a route reads only: unknown ones share the entry", async () => {
    const first = await server.request("/api/submissions?limit=5&v=1");
    expect(first.headers.get("x-cache")).toBeNull();
    for (const query of ["?v=2&limit=5", "?limit=5&anything=else", "?limit=5"]) {
      expect((await server.request(`/api/submissions${query}`)).headers.get("x-cache"), query).toBe("HIT");
    }
    expect((await server.request("/api/submissions?limit=6")).headers.get("x-cache")).toBeNull();
  });

  it("keeps its entries inside a byte budget, evicting the oldest, whatever anonymous visitors ask", async () => {
    const cache = createReadCache({
      ttlMs: 60_000,
      maxBytes: 64 * 1024,
      routes: [{ pattern: /^\/api\/echo$/, params: ["q"] }],
    });
    const app = new Hono();
    app.use(cache.middleware);
    app.get("/api/echo", (c) => c.json({ q: c.req.query("q"), pad: "x".repeat(2000) }));
    for (let i = 0; i < 500; i++) await app.request(`/api/echo?q=${i}`);
    expect(cache.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.stats().entries).toBeLessThan(40);
    const newest = await app.request("/api/echo?q=499");
    expect(newest.headers.get("x-cache")).toBe("HIT");
    expect((await app.request("/api/echo?q=0")).headers.get("x-cache")).toBeNull();
  });

  it("drops expired entries as soon as anything is stored", async () => {
    const cache = createReadCache({
      ttlMs: 20,
      maxBytes: 1024 * 1024,
      routes: [{ pattern: /^\/api\/echo$/, params: ["q"] }],
    });
    const app = new Hono();
    app.use(cache.middleware);
    app.get("/api/echo", (c) => c.json({ q: c.req.query("q") }));
    for (let i = 0; i < 50; i++) await app.request(`/api/echo?q=${i}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await app.request("/api/echo?q=new");
    expect(cache.stats().entries).toBe(1);
  });
});
