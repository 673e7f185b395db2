import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

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

  it("never caches per-user answers", async () => {
    await server.request("/api/feeds/ai/can-moderate");
    expect((await server.request("/api/feeds/ai/can-moderate")).headers.get("x-cache")).toBeNull();
    await server.request("/api/users/me");
    expect((await server.request("/api/users/me")).headers.get("x-cache")).toBeNull();
  });
});
