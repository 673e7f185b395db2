import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeX } from "../../test/fake-x.ts";
import { readJson, startTestServer, type TestServer } from "../../test/harness.ts";
import { png } from "../../test/images.ts";
import { serveApp } from "../../test/serve-app.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

/**
 * Each finding of the attack review, replayed through HTTP against the real app (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set). Each test failed before its fix.
 */

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "1000",
    READ_CACHE_TTL_MS: "60000",
  });
  ({ cookie } = await signIn(server));
  await insertFeed(server.db, { id: "ai" });
});

afterAll(() => server.close());

const feedConfig = (overrides: Record<string, unknown> = {}) => ({
  id: "hardened",
  name: "Hardened",
  description: "A feed",
  ...overrides,
});

describe("1. memory exhaustion", () => {
  it("refuses a 20 MB body before reading it (413) and a field over its maximum (400)", async () => {
    const huge = await server.request("/api/feeds", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify(feedConfig({ description: "d".repeat(20 * 1024 * 1024) })),
    });
    expect(huge.status).toBe(413);
    expect((await readJson(huge)).error.code).toBe("PAYLOAD_TOO_LARGE");
    const long = await server.json("/api/feeds", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify(feedConfig({ description: "d".repeat(5000) })),
    });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toEqual([expect.objectContaining({ path: "description" })]);
  });

  it("answers anonymous cache-busting queries from one cache entry", async () => {
    const first = await server.request("/api/feeds?v=1");
    expect(first.headers.get("x-cache")).toBeNull();
    for (let v = 2; v <= 49; v++) {
      expect((await server.request(`/api/feeds?v=${v}`)).headers.get("x-cache")).toBe("HIT");
    }
  });
});

describe("4. development tools fail closed", () => {
  it("mounts no test routes on a server reachable from elsewhere, even in development mode", async () => {
    const exposed = await startTestServer({
      NODE_ENV: "development",
      PUBLIC_URL: "https://curate.example",
      ALLOW_PUBLIC_TRIAL: "true",
    });
    try {
      const { cookie: c } = await signIn(exposed);
      const post = await exposed.json("/api/test/tweets", {
        method: "POST",
        headers: { ...sessionHeaders(exposed, c), Origin: "https://curate.example" },
        body: JSON.stringify({ text: "!submit @curatedotfun #ai", username: "approver" }),
      });
      expect(post.status).toBe(404);
      expect((await exposed.json("/api/config")).body.data.devTools).toBe(false);
    } finally {
      await exposed.close();
    }
  });
});

describe("5. what one account can make the server spend", () => {
  it("caps feeds per account, writes per minute and uploaded bytes per day", async () => {
    const capped = await startTestServer({
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      FEEDS_PER_ACCOUNT: "2",
      WRITE_RATE_LIMIT_PER_MINUTE: "5",
      UPLOAD_BYTES_PER_DAY: "100",
    });
    try {
      const { cookie: c } = await signIn(capped);
      const create = (id: string) =>
        capped.json("/api/feeds", {
          method: "POST",
          headers: sessionHeaders(capped, c),
          body: JSON.stringify(feedConfig({ id })),
        });
      expect((await create("one")).status).toBe(201);
      expect((await create("two")).status).toBe(201);
      const third = await create("three");
      expect(third.status).toBe(403);
      expect(third.body.error.message).toMatch(/most one account may create/);
      const upload = (variant: number) => {
        const form = new FormData();
        form.set("file", new Blob([png(variant)], { type: "image/png" }), "a.png");
        return capped.json("/api/upload", {
          method: "POST",
          headers: { Cookie: c, Origin: capped.baseUrl },
          body: form,
        });
      };
      expect((await upload(1)).status).toBe(201);
      const over = await upload(2);
      expect(over.status).toBe(429);
      expect(over.body.error.message).toMatch(/uploaded/);
      // Five writes this minute so far (three feeds, one refused, and two uploads, one refused): the sixth waits.
      const paced = await create("four");
      expect(paced.status).toBe(429);
      expect(paced.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await capped.close();
    }
  });

  it("paces X API calls by the operator's hourly budget, whatever a feed's sources ask", async () => {
    const x = await startFakeX({ bearerToken: "t", botUsername: "bot" });
    const budgeted = await startTestServer({
      BOT_HANDLE: "bot",
      X_API_BASE_URL: x.url,
      X_BEARER_TOKEN: "t",
      X_API_CALLS_PER_HOUR: "3",
    });
    try {
      const source = budgeted.intake.mentionSources.find((s) => s.key.startsWith("x:"));
      if (!source) throw new Error("no X source");
      await budgeted.intake.runPass(source);
      await budgeted.intake.runPass(source);
      await expect(budgeted.intake.runPass(source)).rejects.toThrow(/budget for this hour is spent/);
      expect(x.requests.length).toBeLessThanOrEqual(3);
    } finally {
      await budgeted.close();
      await x.close();
    }
  });
});

describe("6. bad input is a 4xx in the envelope", () => {
  const cases: Array<[string, string, RequestInit]> = [
    [
      "a text/plain body",
      "/api/auth/initiate-login",
      { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" },
    ],
    ["a missing body", "/api/auth/initiate-login", { method: "POST" }],
    ["NUL in the path", "/api/feeds/a%00b", {}],
    ["NUL in the query", "/api/submissions?q=a%00b", {}],
    ["broken percent-encoding", "/api/feeds/%E0%A4%A", {}],
    [
      "NUL in the body",
      "/api/auth/initiate-login",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"accountId":"a\\u0000b"}' },
    ],
    [
      "a lone surrogate in the body",
      "/api/auth/initiate-login",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"accountId":"\\ud800"}' },
    ],
    [
      "a body nested 5000 deep",
      "/api/auth/initiate-login",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: `${"[".repeat(5000)}${"]".repeat(5000)}`,
      },
    ],
  ];
  it.each(cases)("refuses %s", async (_label, path, init) => {
    const response = await server.request(path, init);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await readJson(response)).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it("refuses malformed multipart and an oversized request line in the envelope", async () => {
    const multipart = await server.json("/api/upload", {
      method: "POST",
      headers: {
        Cookie: cookie,
        Origin: server.baseUrl,
        "Content-Type": "multipart/form-data; boundary=zzz",
      },
      body: "--zzz\r\ngarbage",
    });
    expect(multipart.status).toBe(400);
    const long = await server.request(`/api/feeds/${"x".repeat(20_000)}?q=${"y".repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect(await readJson(long)).toMatchObject({ success: false, error: { code: "HEADERS_TOO_LARGE" } });
  });

  it("answers a request line Node cannot parse in the envelope", async () => {
    const port = Number(new URL(server.baseUrl).port);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("GARBAGE\r\n\r\n"));
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk;
      });
      socket.on("close", () => resolve(data));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain('"success":false');
  });

  it("keeps an idle connection longer than the proxies in front of it, so a reused socket is not cut mid-request", async () => {
    const response = await server.request("/api/health");
    await response.arrayBuffer();
    const keepAlive = Number(/timeout=(\d+)/.exec(response.headers.get("keep-alive") ?? "")?.[1]);
    expect(keepAlive).toBeGreaterThan(60);
  });
});

describe("bodiless mutations", () => {
  it("takes a DELETE that frames no body the way browsers send it, and still refuses a body that is not JSON", async () => {
    const created = await server.json("/api/feeds", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify(feedConfig({ id: "bodiless" })),
    });
    expect(created.status).toBe(201);
    const port = Number(new URL(server.baseUrl).port);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write(
          `DELETE /api/feeds/bodiless HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.baseUrl}\r\n` +
            `Cookie: ${cookie}\r\nConnection: close\r\n\r\n`,
        ),
      );
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk;
      });
      socket.on("close", () => resolve(data));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect((await server.request("/api/feeds/bodiless")).status).toBe(404);
    const typed = await server.request("/api/feeds/ai", {
      method: "DELETE",
      headers: { Cookie: cookie, Origin: server.baseUrl, "Content-Type": "text/plain" },
      body: "x",
    });
    expect(typed.status).toBe(415);
  });
});

describe("7. sign-in limits", () => {
  it("never limit signing out, key on the proxy's client address with TRUST_PROXY, and hold across processes", async () => {
    const limited = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "1" });
    const second = await serveApp(limited.database, {
      NODE_ENV: "test",
      AUTH_RATE_LIMIT_PER_MINUTE: "2",
      TRUST_PROXY: "1",
    });
    try {
      const initiate = (baseUrl: string, address: string) =>
        fetch(`${baseUrl}/api/auth/initiate-login`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": `203.0.113.9, ${address}` },
          body: JSON.stringify({ accountId: "alice.near" }),
        });
      expect((await initiate(limited.baseUrl, "198.51.100.1")).status).toBe(200);
      // The second API process counts against the same limit.
      expect((await initiate(second.baseUrl, "198.51.100.1")).status).toBe(200);
      expect((await initiate(limited.baseUrl, "198.51.100.1")).status).toBe(429);
      // Another client behind the same proxy is not locked out by the first.
      expect((await initiate(limited.baseUrl, "198.51.100.2")).status).toBe(200);
      for (let i = 0; i < 5; i++) {
        const out = await fetch(`${limited.baseUrl}/api/auth/logout`, {
          method: "POST",
          headers: { "X-Forwarded-For": "198.51.100.1" },
        });
        expect(out.status).toBe(200);
      }
    } finally {
      await second.close();
      await limited.close();
    }
  });
});

describe("8. concurrent uploads of the same new image", () => {
  it("all succeed with the same URL", async () => {
    const bytes = png(4242);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => {
        const form = new FormData();
        form.set("file", new Blob([bytes], { type: "image/png" }), "same.png");
        return server.json("/api/upload", {
          method: "POST",
          headers: { Cookie: cookie, Origin: server.baseUrl },
          body: form,
        });
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(201));
    expect(new Set(answers.map((a) => a.body.data.url)).size).toBe(1);
  });
});

describe("9. defence in depth", () => {
  it("compares the scheme too when checking a mutation's origin", async () => {
    const https = server.baseUrl.replace("http://", "https://");
    const response = await server.request("/api/feeds", {
      method: "POST",
      headers: { Cookie: cookie, Origin: https, "Content-Type": "application/json" },
      body: JSON.stringify(feedConfig({ id: "scheme" })),
    });
    expect(response.status).toBe(403);
  });

  it("echoes a caller's request id only when it is short and plain", async () => {
    const echoed = await server.request("/api/health", { headers: { "X-Request-Id": "edge-7f3a:01" } });
    expect(echoed.headers.get("x-request-id")).toBe("edge-7f3a:01");
    for (const sent of ["a".repeat(4096), "two words", "<script>"]) {
      const answer = await server.request("/api/health", { headers: { "X-Request-Id": sent } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("accepts only http(s) URLs for feed images", async () => {
    const { status, body } = await server.json("/api/feeds", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify(feedConfig({ id: "images", image: "javascript:alert(1)" })),
    });
    expect(status).toBe(400);
    expect(body.error.details).toEqual([expect.objectContaining({ path: "image" })]);
  });
});
