import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { entryPointRefusal } from "@curate/core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveAndFinish as approveAndFinishAs } from "../../../test/external-plugins.ts";
import { insertFeed } from "../../../test/factories.ts";
import { startFakeServer } from "../../../test/fakes/server.ts";
import { startWebhookReceiver } from "../../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../../test/harness.ts";
import { newKey } from "../../../test/near.ts";
import { recordingDistributor } from "../../../test/plugins.ts";
import { sessionHeaders, signIn } from "../../../test/session.ts";
import { plugins, processingSteps } from "../../db/schema.ts";

const EXAMPLE = readFileSync(
  new URL("../../../../../examples/plugins/shout/index.mjs", import.meta.url),
  "utf8",
);
const EXAMPLE_SCHEMA = JSON.parse(
  readFileSync(new URL("../../../../../examples/plugins/shout/schema.json", import.meta.url), "utf8"),
);

// Plugins that try what an attacker would: each is served as an ES module like any other plugin.
const HOSTILE: Record<string, string> = {
  "/loop.mjs": "export function transform() { for (;;) {} }",
  "/hang.mjs": "export function transform() { return new Promise(() => {}); }",
  "/snoop.mjs": `export async function transform(input, config) {
    const attempt = async (f) => { try { return await f(); } catch (e) { return "refused: " + String(e && e.message || e); } };
    return {
      process: typeof process,
      require: typeof require,
      env: await attempt(() => globalThis.process.env.SESSION_SECRET),
      viaFunction: await attempt(() => typeof Function("return this")().process),
      importFs: await attempt(async () => { const fs = await import("node:fs"); return typeof fs.readFileSync; }),
      secretHost: await attempt(async () => (await fetch("__SECRET_URL__")).status),
      metadata: await attempt(async () => (await fetch("http://169.254.169.254/latest/meta-data/")).status),
      allowed: await attempt(async () => (await fetch(config.dataUrl)).json()),
    };
  }`,
  "/imports.mjs":
    'import { readFileSync } from "node:fs";\nexport function transform() { return readFileSync("/etc/passwd", "utf8"); }',
};

// A stranger's distributor registered, before decision 0022, under the built-in webhook's short name.
const IMPOSTOR = `export function render(input, config) { return { stolen: input, to: config.url }; }
export async function send(rendered) { await fetch(rendered.to, { method: "POST", body: JSON.stringify(rendered) }); return { reference: { kind: "impostor", id: "1" } }; }`;
const HOOK_SECRET = "whsec_external";

let server: TestServer;
let codeServer: Server;
let codeBase: string;
let version = EXAMPLE;
const recorder = recordingDistributor();
const ownerKey = newKey();
let owner: string;
let data: Awaited<ReturnType<typeof startFakeServer>>;
let secretService: Awaited<ReturnType<typeof startFakeServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const codeRequests: string[] = [];

beforeAll(async () => {
  codeServer = createServer((req, res) => {
    codeRequests.push(req.url ?? "");
    const body =
      req.url === "/shout/index.mjs"
        ? version
        : req.url === "/impostor.mjs"
          ? IMPOSTOR
          : HOSTILE[req.url ?? ""]?.replace("__SECRET_URL__", `${secretService.url}/secret`);
    res.writeHead(body ? 200 : 404, { "content-type": "text/javascript" }).end(body ?? "not found");
  });
  await new Promise<void>((resolve) => codeServer.listen(0, "127.0.0.1", resolve));
  codeBase = `http://127.0.0.1:${(codeServer.address() as AddressInfo).port}`;
  data = await startFakeServer(() => ({ status: 200, body: { mood: "sunny" } }));
  secretService = await startFakeServer(() => ({ status: 200, body: { secret: "s3cret" } }));
  receiver = await startWebhookReceiver(HOOK_SECRET);

  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      PLUGIN_ALLOWED_HOSTS: new URL(codeBase).host,
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
      PLUGIN_TIMEOUT_MS: "1500",
      PLUGIN_CODE_TTL_MS: "0",
      PROCESSING_MAX_ATTEMPTS: "1",
    },
    {
      worker: {
        extraPlugins: [recorder.plugin],
        feedSecrets: async (feedId): Promise<Record<string, string>> =>
          feedId === "shadowed" ? { HOOK_SECRET } : {},
      },
    },
  );
  owner = (await signIn(server, ownerKey)).cookie;

  const register = async (name: string, entryPoint: string, schemaDefinition?: object) => {
    const { status } = await server.json("/api/plugins", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({
        name,
        type: "transformer",
        repoUrl: `https://github.com/test/${name.replace(/\W/g, "-")}`,
        entryPoint,
        schemaDefinition,
      }),
    });
    expect(status).toBe(201);
  };
  await register("@example/shout", `${codeBase}/shout/index.mjs`, EXAMPLE_SCHEMA);
  for (const path of Object.keys(HOSTILE))
    await register(`@hostile${path.replace(".mjs", "")}`, `${codeBase}${path}`);
  // The same file from a host the operator did not allow (another name for the same machine), registered before the
  // registry refused such hosts, or before the operator took the host off the list.
  await server.db.insert(plugins).values({
    name: "@elsewhere/shout",
    type: "transformer",
    repoUrl: "https://github.com/test/elsewhere-shout",
    entryPoint: `http://localhost:${new URL(codeBase).port}/shout/index.mjs`,
    createdBy: ownerKey.implicitAccountId,
  });
  // A registration the old rule allowed under a built-in's short name (decision 0022's migration renames such rows;
  // this one is written after it, as a row nothing renamed).
  await server.db.insert(plugins).values({
    name: "webhook",
    type: "distributor",
    repoUrl: "https://github.com/stranger/webhook",
    entryPoint: `${codeBase}/impostor.mjs`,
    createdBy: "stranger.near",
  });

  const feed = (id: string, plugin: string, config: Record<string, unknown> = {}) =>
    insertFeed(server.db, {
      id,
      createdBy: ownerKey.implicitAccountId,
      config: {
        id,
        name: id,
        description: `About ${id}`,
        outputs: {
          stream: {
            enabled: true,
            transform: [{ plugin, config }],
            distribute: [{ plugin: "@test/recorder" }],
          },
        },
      },
    });
  await feed("shouting", "@example/shout", { suffix: "!", enrichUrl: `${data.url}/weather` });
  await feed("badconfig", "@example/shout", { suffix: 42 });
  await feed("elsewhere", "@elsewhere/shout");
  await feed("looping", "@hostile/loop");
  await feed("hanging", "@hostile/hang");
  await feed("snooping", "@hostile/snoop", { dataUrl: `${data.url}/ok`, note: "see the docs" });
  await feed("importing", "@hostile/imports");
  await insertFeed(server.db, {
    id: "shadowed",
    createdBy: ownerKey.implicitAccountId,
    config: {
      id: "shadowed",
      name: "Shadowed",
      description: "Publishes to a webhook by its short name",
      outputs: {
        stream: {
          enabled: true,
          distribute: [{ plugin: "webhook", config: { url: receiver.url, secret: "{{HOOK_SECRET}}" } }],
        },
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => codeServer?.close(resolve));
  await data?.close();
  await secretService?.close();
  await receiver?.close();
});

async function approveAndFinish(feedId: string, content = "the sun is out") {
  return (await approveAndFinishAs(server, owner, feedId, content)).step;
}

/**
 * Health answers while a plugin misbehaves: the plugin's isolate has its own thread and heap. Counted are answers
 * that came back while the plugin's step was still running, so a server the plugin held up would answer none.
 */
async function healthWhile<T>(
  work: Promise<T>,
  pluginName: string,
): Promise<{ result: T; answeredWhileRunning: number }> {
  let answeredWhileRunning = 0;
  let done = false;
  const running = async () =>
    (
      await server.db
        .select({ id: processingSteps.id })
        .from(processingSteps)
        .where(and(eq(processingSteps.pluginName, pluginName), eq(processingSteps.status, "processing")))
    ).length > 0;
  const probing = (async () => {
    while (!done) {
      const response = await server.request("/api/health");
      expect(response.status).toBe(200);
      if (await running()) answeredWhileRunning++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const result = await work.finally(() => {
    done = true;
  });
  await probing;
  return { result, answeredWhileRunning };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("external plugins in a feed's pipeline", () => {
  it("runs the example plugin from an allowed host, isolated, with network only to hosts its config names", async () => {
    const step = await approveAndFinish("shouting");
    expect(step).toMatchObject({
      pluginName: "@example/shout",
      status: "success",
      pluginVersion: sha256(EXAMPLE),
    });
    expect(step.output).toEqual({ content: "THE SUN IS OUT!", enrichment: { mood: "sunny" } });
    expect(data.requests.map((r) => r.path)).toContain("/weather");
    const shown = await server.json(`/api/processing/jobs/${step.jobId}/steps`, {
      headers: sessionHeaders(server, owner),
    });
    expect(shown.body.data.steps[0]).toMatchObject({ pluginVersion: sha256(EXAMPLE) });
    expect(recorder.deliveries.at(-1)?.input).toMatchObject({ content: "THE SUN IS OUT!" });
  });

  it("records a changed file as a new version", async () => {
    version = `${EXAMPLE}\n// v2\n`;
    const step = await approveAndFinish("shouting");
    expect(step.pluginVersion).toBe(sha256(version));
    version = EXAMPLE;
  });

  it("checks the config against the plugin's schema definition", async () => {
    const step = await approveAndFinish("badconfig");
    expect(step.status).toBe("failed");
    expect(step.error).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/suffix: must be string/),
    });
  });

  it("runs the built-in for a built-in's short name, never a registration of that name", async () => {
    const step = await approveAndFinish("shadowed", "the webhook is mine");
    expect(step).toMatchObject({ pluginName: "@curate/webhook", status: "success", pluginVersion: null });
    expect(receiver.deliveries.map((delivery) => delivery.body.data.content)).toEqual([
      "the webhook is mine",
    ]);
    expect(codeRequests).not.toContain("/impostor.mjs");
  });

  it("refuses a plugin from a host the operator did not allow, at registration and at run time", async () => {
    const registered = await server.json("/api/plugins", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({
        name: "@elsewhere/again",
        type: "transformer",
        repoUrl: "https://github.com/test/elsewhere-again",
        entryPoint: `http://localhost:${new URL(codeBase).port}/shout/index.mjs`,
      }),
    });
    expect(registered.status).toBe(400);
    expect(registered.body.error.details).toEqual([
      {
        path: "entryPoint",
        message: `This server runs plugins only from ${new URL(codeBase).host} (PLUGIN_ALLOWED_HOSTS): host not allowed: localhost:${new URL(codeBase).port}.`,
      },
    ]);

    const step = await approveAndFinish("elsewhere");
    expect(step.status).toBe("failed");
    expect(step.error).toMatchObject({
      code: "PLUGIN_HOST_NOT_ALLOWED",
      message: `host not allowed: localhost:${new URL(codeBase).port}`,
    });
    expect(entryPointRefusal("https://plugins.example.com/x.mjs", [])).toBe("remote plugins are disabled");
  });

  it("stops a plugin that loops forever, and one that never answers, by the time limit", async () => {
    const { result: step, answeredWhileRunning } = await healthWhile(
      approveAndFinish("looping"),
      "@hostile/loop",
    );
    expect(step.status).toBe("failed");
    expect(step.error).toMatchObject({ code: "PLUGIN_TIMEOUT" });
    expect(answeredWhileRunning).toBeGreaterThan(0);
    const hung = await approveAndFinish("hanging");
    expect(hung.error).toMatchObject({ code: "PLUGIN_TIMEOUT" });
  });

  it("gives a plugin nothing of the server: no environment, files, modules or unnamed hosts", async () => {
    const step = await approveAndFinish("snooping");
    expect(step.status).toBe("success");
    const output = step.output as Record<string, unknown>;
    expect(output.process).toBe("undefined");
    expect(output.require).toBe("undefined");
    expect(output.env).toMatch(/^refused/);
    expect(output.viaFunction).toBe("undefined");
    expect(output.importFs).toMatch(/^refused/);
    expect(output.secretHost).toBe(`refused: host not allowed: ${new URL(secretService.url).host}`);
    expect(output.metadata).toMatch(/^refused: host not allowed: 169\.254\.169\.254/);
    expect(output.allowed).toEqual({ mood: "sunny" });
    expect(secretService.requests).toHaveLength(0);

    const importing = await approveAndFinish("importing");
    expect(importing.status).toBe("failed");
    expect(importing.error).toMatchObject({
      code: "PLUGIN_FAILED",
      message: expect.stringMatching(/cannot import "node:fs"/),
    });
  });
});
