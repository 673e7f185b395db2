import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveAndFinish, feedWithExternalTransformer } from "../../../test/external-plugins.ts";
import { startFakeServer } from "../../../test/fakes/server.ts";
import { startTestServer, type TestServer } from "../../../test/harness.ts";
import { newKey } from "../../../test/near.ts";
import { recordingDistributor } from "../../../test/plugins.ts";
import { signIn } from "../../../test/session.ts";

const HOG = `export function transform() {
  const hoard = [];
  for (;;) hoard.push(new Array(1_000_000).fill(Math.random()));
}`;

// A server of its own: with external.test's short time limit, a busy machine let the clock stop the plugin before
// its heap filled. Here the time limit only stops a hang, so the memory limit is what must stop the plugin.
let server: TestServer;
let code: Awaited<ReturnType<typeof startFakeServer>>;
const recorder = recordingDistributor();
const ownerKey = newKey();
let owner: string;

beforeAll(async () => {
  code = await startFakeServer(() => ({
    status: 200,
    headers: { "content-type": "text/javascript" },
    body: HOG,
  }));
  server = await startTestServer(
    {
      PLUGIN_ALLOWED_HOSTS: `localhost:${code.port}`,
      PLUGIN_TIMEOUT_MS: "60000",
      PLUGIN_MEMORY_LIMIT_MB: "16",
      PROCESSING_MAX_ATTEMPTS: "1",
    },
    { worker: { extraPlugins: [recorder.plugin] } },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  await feedWithExternalTransformer(
    server,
    { cookie: owner, key: ownerKey },
    {
      id: "hogging",
      description: "A feed whose plugin allocates without bound",
      plugin: "@hostile/hog",
      entryPoint: `http://localhost:${code.port}/hog.mjs`,
    },
  );
});

afterAll(async () => {
  await server?.close();
  await code?.close();
});

describe("an external plugin's memory", () => {
  it("is capped: a plugin that allocates without bound is stopped by the memory limit, and nothing is sent", async () => {
    const rssBefore = process.memoryUsage().rss;
    const { jobStatus, step } = await approveAndFinish(server, owner, "hogging", "hoard");
    expect(jobStatus).toBe("failed");
    expect(step).toMatchObject({ pluginName: "@hostile/hog", status: "failed" });
    expect(step.error).toMatchObject({
      code: "PLUGIN_MEMORY_LIMIT",
      message: "The plugin used more than 16 MB of memory and was stopped.",
    });
    // The isolate's heap is capped at 16 MB, so the server's own memory barely moves.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    expect(recorder.deliveries).toHaveLength(0);
    const health = await server.request("/api/health");
    expect(health.status).toBe(200);
  });
});
