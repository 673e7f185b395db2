import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveAndFinish, feedWithExternalTransformer } from "../../../test/external-plugins.ts";
import { insertSubmission } from "../../../test/factories.ts";
import { startFakeServer } from "../../../test/fakes/server.ts";
import { startTestServer, type TestServer } from "../../../test/harness.ts";
import { newKey } from "../../../test/near.ts";
import { recordingDistributor } from "../../../test/plugins.ts";
import { sessionHeaders, signIn } from "../../../test/session.ts";

// A plugin that fetches every URL its config lists and reports what came back: what any benign plugin that
// fetches a configured URL becomes in an attacker's feed.
const FETCHER = `export async function transform(input, config) {
  const seen = {};
  for (const url of config.targets) {
    try {
      const response = await fetch(url);
      seen[url] = "reached " + response.status + " " + (await response.text());
    } catch (error) {
      seen[url] = "refused: " + String((error && error.message) || error);
    }
  }
  return { seen, hostFetch: typeof hostFetch, hidden: typeof globalThis.__hostFetch };
}`;

/** Every spelling of this machine's own address an attacker may write in a URL (all but `[::1]` reach it). */
function loopbackSpellings(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/secret`,
    `http://127.1:${port}/secret`,
    `http://2130706433:${port}/secret`,
    `http://0x7f000001:${port}/secret`,
    `http://0177.0.0.1:${port}/secret`,
    `http://0.0.0.0:${port}/secret`,
    `http://[::1]:${port}/secret`,
    `http://[::]:${port}/secret`,
    `http://[::ffff:127.0.0.1]:${port}/secret`,
    `http://[::ffff:7f00:1]:${port}/secret`,
    `http://[::127.0.0.1]:${port}/secret`,
    `http://[64:ff9b::127.0.0.1]:${port}/secret`,
    `http://localhost:${port}/secret`,
  ];
}

let server: TestServer;
let code: Awaited<ReturnType<typeof startFakeServer>>;
let secret: Awaited<ReturnType<typeof startFakeServer>>;
const recorder = recordingDistributor();
const ownerKey = newKey();
let owner: string;
let targets: string[];

beforeAll(async () => {
  code = await startFakeServer(() => ({
    status: 200,
    headers: { "content-type": "text/javascript" },
    body: FETCHER,
  }));
  // The operator's own service on this machine, listening on IPv4 and IPv6 loopback.
  secret = await startFakeServer(() => ({ status: 200, body: { secret: "s3cret" } }), { host: "::" });
  targets = loopbackSpellings(secret.port);
  server = await startTestServer(
    {
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      // The plugin's host is allowed by name, and nothing is allowed to reach private addresses.
      PLUGIN_ALLOWED_HOSTS: `localhost:${code.port}`,
      PLUGIN_CODE_TTL_MS: "0",
      PROCESSING_MAX_ATTEMPTS: "1",
    },
    { worker: { extraPlugins: [recorder.plugin] } },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  await feedWithExternalTransformer(
    server,
    { cookie: owner, key: ownerKey },
    {
      id: "probing",
      description: "A feed whose plugin asks for the operator's own network",
      plugin: "@attacker/fetcher",
      entryPoint: `http://localhost:${code.port}/fetcher.mjs`,
      config: { targets },
    },
  );
});

afterAll(async () => {
  await server?.close();
  await code?.close();
  await secret?.close();
});

function expectEveryTargetRefused(seen: Record<string, string>) {
  expect(Object.keys(seen).sort()).toEqual([...targets].sort());
  for (const [url, outcome] of Object.entries(seen)) {
    expect(`${url} ${outcome}`).toMatch(/ refused: .*(loopback, private or link-local|host not allowed)/);
  }
  expect(JSON.stringify(seen)).not.toContain("s3cret");
}

describe("a registered plugin's own requests", () => {
  it("reach no loopback address in any spelling in a dry-run preview", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "probe",
      feeds: [{ feedId: "probing" }],
    });
    const { status, body } = await server.json("/api/processing/preview", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ submissionId: tweetId, feedId: "probing" }),
    });
    expect(status).toBe(200);
    const [channel] = body.data.channels;
    expect(channel.status).toBe("rendered");
    expectEveryTargetRefused(channel.request.seen);
    // The host's function behind fetch is nowhere in the plugin's reach, by name or on the global object.
    expect(channel.request).toMatchObject({ hostFetch: "undefined", hidden: "undefined" });
    expect(secret.requests).toHaveLength(0);
  });

  it("reach no loopback address in any spelling in a real job", async () => {
    const { jobStatus, step } = await approveAndFinish(server, owner, "probing", "probe");
    expect(jobStatus).toBe("completed");
    expect(step).toMatchObject({ pluginName: "@attacker/fetcher", status: "success" });
    expectEveryTargetRefused((step.output as { seen: Record<string, string> }).seen);
    expect(recorder.deliveries).toHaveLength(1);
    expect(secret.requests).toHaveLength(0);
  });
});
