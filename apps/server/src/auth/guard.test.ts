import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJson, startTestServer, type TestServer } from "../../test/harness.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { CALLBACK_PATHS } from "../app.ts";
import { isMutation, PUBLIC_MUTATIONS } from "./middleware.ts";

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  ({ cookie } = await signIn(server));
});

afterAll(() => server.close());

/** Routes the guard lets through to check a credential of their own (each file of theirs tests it). */
const GUARDED_ELSEWHERE = new Set([...PUBLIC_MUTATIONS, ...CALLBACK_PATHS]);

/** Every mutating API route the app has, with path parameters filled in. */
function mutatingRoutes() {
  const seen = new Set<string>();
  for (const route of server.app.routes) {
    if (!route.path.startsWith("/api/") || route.path.includes("*") || !isMutation(route.method)) continue;
    seen.add(`${route.method} ${route.path.replace(/:[^/]+/g, "x1")}`);
  }
  return [...seen].map((entry) => {
    const [method, path] = entry.split(" ");
    return { method, path };
  });
}

describe("the mutation guard", () => {
  it("finds the app's mutating routes (so the checks below cannot pass vacuously)", () => {
    const paths = mutatingRoutes().map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining([...PUBLIC_MUTATIONS]));
  });

  it("refuses every non-public mutating route without a session: 401 with the spec's message", async () => {
    for (const { method, path } of mutatingRoutes().filter((r) => !GUARDED_ELSEWHERE.has(r.path))) {
      const response = await server.request(path, {
        method,
        headers: { "Content-Type": "application/json", Origin: server.baseUrl },
        body: "{}",
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect((await readJson(response)).error.message).toBe("User not authenticated or account ID missing.");
    }
  });

  it("refuses cookie-authenticated mutations without a same-origin Origin: 403", async () => {
    for (const { method, path } of mutatingRoutes().filter((r) => !GUARDED_ELSEWHERE.has(r.path))) {
      for (const origin of [undefined, "https://evil.example"]) {
        const headers: Record<string, string> = { Cookie: cookie, "Content-Type": "application/json" };
        if (origin) headers.Origin = origin;
        const response = await server.request(path, { method, headers, body: "{}" });
        expect(response.status, `${method} ${path} from ${origin}`).toBe(403);
      }
    }
    const crossLogout = await server.request("/api/auth/logout", {
      method: "POST",
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect(crossLogout.status).toBe(403);
    expect((await server.json("/api/users/me", { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it("lets same-origin requests through", async () => {
    const response = await server.request("/api/auth/logout", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
    });
    expect(response.status).toBe(200);
  });
});
