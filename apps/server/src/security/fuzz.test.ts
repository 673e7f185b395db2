import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeCrosspost } from "../../test/fakes/crosspost.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { signIn } from "../../test/session.ts";

/**
 * Property-based fuzzing of every operation the OpenAPI document lists (DESIGN §8): whatever the path, query,
 * headers and body, the answer is never a 5xx and always the envelope.
 */

let server: TestServer;
let cookie: string;
// Linking accounts asks Crosspost; a local one keeps the fuzzing off the internet.
let crosspost: Awaited<ReturnType<typeof startFakeCrosspost>>;

interface Operation {
  method: string;
  path: string;
  params: Array<{ name: string; in: string }>;
  hasBody: boolean;
  /** The media type of a success that is a document, not an envelope (a JSON Lines download), per the OpenAPI. */
  documentType: string | null;
}

let operations: Operation[] = [];

beforeAll(async () => {
  crosspost = await startFakeCrosspost({ accounts: {} });
  server = await startTestServer({
    CROSSPOST_API_URL: crosspost.url,
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    WRITE_RATE_LIMIT_PER_MINUTE: "100000",
    FEEDS_PER_ACCOUNT: "100000",
  });
  await insertFeed(server.db, { id: "ai" });
  await insertSubmission(server.db, { tweetId: "1", feeds: [{ feedId: "ai" }] });
  ({ cookie } = await signIn(server));
  const doc = (await server.json("/api/openapi.json")).body as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Array<{ name: string; in: string }>;
          requestBody?: unknown;
          responses?: Record<string, { content?: Record<string, unknown> }>;
        }
      >
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      params: operation.parameters ?? [],
      hasBody: operation.requestBody !== undefined,
      documentType:
        Object.keys(operation.responses?.["200"]?.content ?? {}).find(
          (type) => type !== "application/json",
        ) ?? null,
    })),
  );
});

afterAll(async () => {
  await server.close();
  await crosspost.close();
});

/** Text a careless or hostile client sends: NUL, lone surrogates, huge runs, markup, SQL, percent signs. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    "%00",
    "%E0%A4%A",
    "'; drop table feeds; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%%%_\\",
    "-1",
    "1e309",
    "NaN",
    "",
    " ",
    "all",
    "ai",
    "1",
  ),
  fc.nat(5000).map((n) => "x".repeat(n)),
);

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    hostileText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileText, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A body as a client might send it: well-formed JSON of any shape, broken JSON, deep nesting, other types. */
const body = fc.oneof(
  jsonValue.map((value) => ({ type: "application/json", text: JSON.stringify(value) ?? "null" })),
  fc
    .record({ accountId: hostileText, feedId: hostileText, submissionId: hostileText, action: hostileText })
    .map((value) => ({ type: "application/json", text: JSON.stringify(value) })),
  fc.constantFrom(
    { type: "application/json", text: "{broken" },
    { type: "application/json", text: "" },
    { type: "application/json", text: `${"[".repeat(6000)}${"]".repeat(6000)}` },
    { type: "application/json", text: '{"a":"\\u0000"}' },
    { type: "application/json", text: '{"name":"\\ud800"}' },
    { type: "text/plain", text: '{"accountId":"alice.near"}' },
    { type: "multipart/form-data; boundary=zzz", text: "--zzz\r\ngarbage" },
    { type: "application/x-www-form-urlencoded", text: "a=b" },
    { type: "", text: "" },
  ),
);

const request = fc.record({
  operation: fc.nat(),
  params: fc.array(hostileText, { minLength: 4, maxLength: 4 }),
  query: fc.dictionary(
    fc.constantFrom(
      "page",
      "limit",
      "status",
      "sortOrder",
      "q",
      "feedId",
      "timeRange",
      "types",
      "offset",
      "from_date",
      "failures",
      "x",
    ),
    hostileText,
    { maxKeys: 4 },
  ),
  body,
  signedIn: fc.boolean(),
});

/** Percent-encodes like a client would, sending a lone surrogate as the (invalid) UTF-8 bytes it would produce. */
function encodeLoose(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
          return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
        }
        return encodeURIComponent(ch);
      })
      .join("");
  }
}

function isEnvelope(json: unknown, status: number): boolean {
  if (!json || typeof json !== "object") return false;
  const envelope = json as {
    success?: unknown;
    statusCode?: unknown;
    error?: { message?: unknown; code?: unknown };
  };
  if (status < 400) return envelope.success === true && envelope.statusCode === status;
  return (
    envelope.success === false &&
    envelope.statusCode === status &&
    typeof envelope.error?.message === "string" &&
    typeof envelope.error?.code === "string"
  );
}

describe("fuzzing every operation of the OpenAPI document", () => {
  it("never answers 5xx, and always in the envelope", async () => {
    expect(operations.length).toBeGreaterThan(20);
    const failures: string[] = [];
    const property = fc.asyncProperty(
      request,
      async ({ operation: index, params, query, body: sent, signedIn }) => {
        const operation = operations[index % operations.length];
        let i = 0;
        const path = operation.path.replace(/\{[^}]+\}/g, () => encodeLoose(params[i++ % params.length]));
        const search = Object.entries(query)
          .map(([key, value]) => `${encodeLoose(key)}=${encodeLoose(value)}`)
          .join("&");
        const url = `/api${path}${search ? `?${search}` : ""}`;
        const headers: Record<string, string> = { Origin: server.baseUrl };
        if (signedIn) headers.Cookie = cookie;
        const withBody = operation.method !== "GET" && operation.method !== "DELETE";
        if (withBody && sent.type) headers["Content-Type"] = sent.type;
        let response: Response;
        try {
          response = await server.request(url, {
            method: operation.method,
            headers,
            body: withBody ? sent.text : undefined,
          });
        } catch (error) {
          failures.push(
            `${operation.method} ${url} → no answer: ${String(error)} ${String((error as Error).cause)}`,
          );
          return false;
        }
        const text = await response.text();
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: reported below.
        }
        // A documented download answers its own media type when it succeeds; every other answer is an envelope.
        const isDocument =
          response.status === 200 &&
          operation.documentType !== null &&
          (response.headers.get("content-type") ?? "").startsWith(operation.documentType);
        const ok = response.status < 500 && (isDocument || isEnvelope(json, response.status));
        if (!ok)
          failures.push(`${operation.method} ${url} ${sent.type} → ${response.status} ${text.slice(0, 200)}`);
        return ok;
      },
    );
    const runs = Number(process.env.FUZZ_RUNS ?? 1500);
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    await fc.assert(property, { numRuns: runs, seed }).catch((error) => {
      const reason = error instanceof Error ? error.message.slice(0, 2000) : String(error);
      throw new Error(`${failures.slice(0, 5).join("\n")}\n${reason}`);
    });
  }, 300_000);
});
