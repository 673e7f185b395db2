import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

let server: TestServer;
const moderatorKey = newKey();
let cookie: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ cookie } = await signIn(server, moderatorKey));
  await insertFeed(server.db, { id: "bots", createdBy: moderatorKey.implicitAccountId });
  await insertSubmission(server.db, {
    tweetId: "7001",
    curatorUsername: "Alice",
    feeds: [{ feedId: "bots" }],
  });
  await insertSubmission(server.db, {
    tweetId: "7002",
    curatorUsername: "mallory",
    feeds: [{ feedId: "bots" }],
  });
});

afterAll(() => server.close());

/** Runs a script of examples/ as its reader would, in a process of its own; resolves with its output. */
function runExample(file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `examples/${file}`], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("examples/trusted-curators.ts", () => {
  it("approves the trusted curator's post with a token and leaves the other for a person", async () => {
    const made = await server.json("/api/users/me/api-tokens", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify({ name: "trusted curators bot", scopes: ["read", "moderate"] }),
    });
    expect(made.status).toBe(201);

    const run = await runExample("trusted-curators.ts", {
      CURATE_URL: server.baseUrl,
      CURATE_TOKEN: made.body.data.secret,
      FEED_ID: "bots",
      TRUSTED_CURATORS: "@alice, bob",
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([
      "approved 7001 (@alice): approved",
      "left 7002 (@mallory) for a person",
      "Approved 1 of 2 pending posts in #bots.",
    ]);

    const pending = await server.json("/api/submissions/feed/bots?status=pending");
    expect(pending.body.data.items.map((post: { tweetId: string }) => post.tweetId)).toEqual(["7002"]);
    const log = await server.json("/api/feeds/bots/log?action=approve");
    expect(log.body.data.items).toHaveLength(1);
    expect(log.body.data.items[0].via).toBe("api_token");
  });

  it("stops with the API's own words when the token lacks a scope", async () => {
    const made = await server.json("/api/users/me/api-tokens", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify({ name: "read only", scopes: ["read"] }),
    });
    await insertSubmission(server.db, {
      tweetId: "7003",
      curatorUsername: "alice",
      feeds: [{ feedId: "bots" }],
    });
    const run = await runExample("trusted-curators.ts", {
      CURATE_URL: server.baseUrl,
      CURATE_TOKEN: made.body.data.secret,
      FEED_ID: "bots",
      TRUSTED_CURATORS: "alice",
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      'API request failed: 403 This API token does not have the "moderate" scope.',
    );
  });
});
