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
    // The write's change version, and the read's: every change up to it is in the answer.
    const written = Number(logout.headers.get("x-change-version"));
    expect(written).toBeGreaterThan(0);
    expect(Number(after.headers.get("x-change-version"))).toBe(written);
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
    let now = 1_000_000;
    const cache = createReadCache({
      ttlMs: 20,
      maxBytes: 1024 * 1024,
      routes: [{ pattern: /^\/api\/echo$/, params: ["q"] }],
      clock: () => now,
    });
    const app = new Hono();
    app.use(cache.middleware);
    app.get("/api/echo", (c) => c.json({ q: c.req.query("q") }));
    for (let i = 0; i < 50; i++) await app.request(`/api/echo?q=${i}`);
    now += 20;
    await app.request("/api/echo?q=new");
    expect(cache.stats().entries).toBe(1);
  });
});

describe("the read cache's lifetime", () => {
  const counting = (options: { ttlMs: number; clock: () => number }) => {
    const cache = createReadCache({
      ...options,
      maxBytes: 1024 * 1024,
      routes: [{ pattern: /^\/api\/n$/, params: [] }],
    });
    const app = new Hono();
    let reads = 0;
    let during: (() => void) | null = null;
    app.use(cache.middleware);
    app.get("/api/n", (c) => {
      reads += 1;
      during?.();
      return c.json({ reads });
    });
    const read = async () => {
      const response = await app.request("/api/n");
      return {
        hit: response.headers.get("x-cache") === "HIT",
        body: (await response.json()) as { reads: number },
      };
    };
    return { cache, read, reads: () => reads, whileReading: (work: (() => void) | null) => (during = work) };
  };

  it("serves a kept answer until its TTL has passed on the clock, then reads again", async () => {
    let now = 5_000;
    const { read } = counting({ ttlMs: 1000, clock: () => now });
    expect(await read()).toEqual({ hit: false, body: { reads: 1 } });
    now += 999;
    expect(await read()).toEqual({ hit: true, body: { reads: 1 } });
    now += 1;
    expect(await read()).toEqual({ hit: false, body: { reads: 2 } });
    expect(await read()).toEqual({ hit: true, body: { reads: 2 } });
  });

  it("is emptied by a change notice whatever the clock says", async () => {
    const now = 5_000;
    const { cache, read } = counting({ ttlMs: 60_000, clock: () => now });
    await read();
    expect((await read()).hit).toBe(true);
    cache.invalidate();
    expect(await read()).toEqual({ hit: false, body: { reads: 2 } });
  });

  it("does not keep an answer read while a change notice arrived: it may predate the change", async () => {
    const now = 5_000;
    const { cache, read, whileReading } = counting({ ttlMs: 60_000, clock: () => now });
    whileReading(() => cache.invalidate());
    expect(await read()).toEqual({ hit: false, body: { reads: 1 } });
    whileReading(null);
    expect(await read()).toEqual({ hit: false, body: { reads: 2 } });
    expect(await read()).toEqual({ hit: true, body: { reads: 2 } });
  });
});
