import { API_SCOPES, type ApiScope, type RouteScope } from "@curate/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeCrosspost } from "../../test/fakes/crosspost.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

/**
 * Scopes are enforced by construction (docs/decisions/0029): every documented route is guarded by the scope its
 * family declares. This walks every operation the OpenAPI document lists, sends it with a token lacking that scope
 * and with one holding only it, and checks the table of what each change needs, so a new route is seen here.
 */

/** What every operation that is not a plain read needs; any other GET needs `read`. */
const NOT_PLAIN_READS: Record<string, RouteScope> = {
  "POST /auth/initiate-login": "session",
  "POST /auth/verify-login": "session",
  "POST /auth/logout": "session",
  "PATCH /users/me": "manage",
  "POST /users/me/linked-accounts/sync": "manage",
  "POST /users/me/link-codes": "manage",
  "GET /users/me/api-tokens": "session",
  "POST /users/me/api-tokens": "session",
  "DELETE /users/me/api-tokens/{id}": "session",
  "GET /users/me/api-tokens/activity": "session",
  "POST /feeds": "manage",
  "PUT /feeds/{id}": "manage",
  "DELETE /feeds/{id}": "manage",
  "POST /feeds/{id}/versions/{n}/restore": "manage",
  "PUT /feeds/{id}/secrets/{name}": "manage",
  "DELETE /feeds/{id}/secrets/{name}": "manage",
  "POST /feeds/{feedId}/config/test": "manage",
  "POST /feeds/{feedId}/log/{seq}/redact": "manage",
  "POST /moderate": "moderate",
  "POST /moderate/bulk": "moderate",
  "POST /moderate/undo": "moderate",
  "POST /moderate/bulk-runs": "moderate",
  "POST /moderate/bulk-runs/{id}/undo": "moderate",
  "POST /moderate/retract": "moderate",
  "POST /processing/jobs/{jobId}/retry": "moderate",
  "POST /processing/steps/{stepId}/retry": "moderate",
  "POST /processing/jobs/{jobId}/reprocess": "moderate",
  "POST /processing/steps/{stepId}/tweak": "moderate",
  "POST /processing/feeds/{feedId}/pauses/resume": "manage",
  "POST /processing/feeds/{feedId}/recaps/{recapId}/run": "moderate",
  "POST /processing/feeds/{feedId}/schedule/sends/{sendId}/move": "moderate",
  "POST /processing/feeds/{feedId}/schedule/sends/{sendId}/publish-now": "moderate",
  "DELETE /processing/feeds/{feedId}/schedule/sends/{sendId}": "moderate",
  "POST /processing/preview": "moderate",
  "POST /processing/jobs/{jobId}/reprocess/dry-run": "moderate",
  "POST /processing/steps/{stepId}/retry/dry-run": "moderate",
  "POST /processing/steps/{stepId}/tweak/dry-run": "moderate",
  "POST /publications/{publicationId}/publish-again": "moderate",
  "POST /publications/{publicationId}/retract": "moderate",
  "POST /upload": "submit",
  "GET /upload/get-auth-key": "submit",
  "POST /upload/pinned": "submit",
  "POST /plugins": "manage",
  "PATCH /plugins/{id}": "manage",
  "DELETE /plugins/{id}": "manage",
  "POST /plugins/notices/{id}/dismiss": "manage",
  "POST /test/tweets": "submit",
  "POST /test/tweets/batch": "submit",
  "PUT /feeds/{feedId}/reminders": "moderate",
  "POST /reminders/read": "moderate",
  "POST /email/subscribe": "session",
  "POST /email/confirm": "session",
  "PUT /email/subscription": "session",
  "POST /email/unsubscribe": "session",
  "POST /email/one-click": "session",
  "POST /email/events": "session",
  "GET /feeds/{feedId}/email/export": "session",
  "POST /feeds/{feedId}/email/test": "manage",
  "PUT /feeds/{feedId}/fediverse": "manage",
  "POST /feeds/{feedId}/approver-offers/{personKey}/confirm": "manage",
  "POST /feeds/{feedId}/approver-offers/{personKey}/decline": "manage",
};

interface Operation {
  key: string;
  method: string;
  path: string;
  hasBody: boolean;
  scope: RouteScope;
}

let server: TestServer;
let crosspost: Awaited<ReturnType<typeof startFakeCrosspost>>;
let cookie: string;
let operations: Operation[] = [];
const tokens = new Map<string, string>();

/** A token holding exactly these scopes, made once per set through the app. */
async function tokenWith(scopes: readonly ApiScope[]): Promise<string> {
  const name = [...scopes].sort().join("+");
  const known = tokens.get(name);
  if (known) return known;
  const { status, body } = await server.json("/api/users/me/api-tokens", {
    method: "POST",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify({ name: name || "none", scopes }),
  });
  expect(status).toBe(201);
  tokens.set(name, body.data.secret);
  return body.data.secret;
}

beforeAll(async () => {
  crosspost = await startFakeCrosspost({ accounts: {} });
  server = await startTestServer({
    CROSSPOST_API_URL: crosspost.url,
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    WRITE_RATE_LIMIT_PER_MINUTE: "100000",
  });
  ({ cookie } = await signIn(server));
  const doc = (await server.json("/api/openapi.json")).body as {
    paths: Record<
      string,
      Record<string, { requestBody?: unknown; security?: Array<Record<string, string[]>> }>
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const key = `${method.toUpperCase()} ${path}`;
      const security = operation.security ?? [];
      // Every operation can be used with a session; the token's scope is the one a route states, if any.
      expect(security, key).toContainEqual({ session: [] });
      const byToken = security.find((requirement) => "apiToken" in requirement)?.apiToken;
      expect(byToken === undefined || byToken.length === 1, key).toBe(true);
      return {
        key,
        method: method.toUpperCase(),
        path,
        hasBody: operation.requestBody !== undefined,
        scope: (byToken?.[0] ?? "session") as RouteScope,
      };
    }),
  );
});

afterAll(async () => {
  await server.close();
  await crosspost.close();
});

/** The operation sent as a script would, with made-up ids and an empty body where it takes one. */
function send(operation: Operation, secret: string) {
  const path = `/api${operation.path.replaceAll(/\{[^}]+\}/g, "x1")}`;
  return server.json(path, {
    method: operation.method,
    headers: {
      Authorization: `Bearer ${secret}`,
      ...(operation.hasBody ? { "Content-Type": "application/json" } : {}),
    },
    body: operation.hasBody ? "{}" : undefined,
  });
}

const SCOPE_REFUSAL = /^This API token does not have the "(\w+)" scope\.$|^API tokens cannot do this/;

describe("scopes on every route family", () => {
  it("every documented operation states the scope its family declares", () => {
    expect(operations.length).toBeGreaterThan(60);
    const stated = Object.fromEntries(operations.map((operation) => [operation.key, operation.scope]));
    const expected = Object.fromEntries(
      operations.map((operation) => [
        operation.key,
        NOT_PLAIN_READS[operation.key] ?? (operation.method === "GET" ? "read" : "unlisted"),
      ]),
    );
    expect(stated).toEqual(expected);
  });

  it("a token without the scope is refused before anything else runs", async () => {
    for (const operation of operations) {
      const lacking = API_SCOPES.filter((scope) => scope !== operation.scope);
      const { status, body } = await send(operation, await tokenWith(lacking));
      expect(status, operation.key).toBe(403);
      expect(body.error.message, operation.key).toBe(
        operation.scope === "session"
          ? "API tokens cannot do this; sign in to Curate in the browser instead."
          : `This API token does not have the "${operation.scope}" scope.`,
      );
    }
  });

  it("a token with only that scope gets past the guard, as its owner", async () => {
    for (const operation of operations.filter((candidate) => candidate.scope !== "session")) {
      const { status, body } = await send(operation, await tokenWith([operation.scope as ApiScope]));
      expect(status, operation.key).toBeLessThan(500);
      expect(status, operation.key).not.toBe(401);
      expect(String(body?.error?.message ?? ""), operation.key).not.toMatch(SCOPE_REFUSAL);
    }
  });
});
