import { Writable } from "node:stream";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { nearSecretKey, newKey } from "../../test/near.ts";
import { recordingDistributor } from "../../test/plugins.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { plugins, processingJobs } from "../db/schema.ts";
import { runFeedSources } from "../intake/feed-sources.ts";
import type { SearchSpec } from "../sources/types.ts";
import { quarantineStoredSecrets } from "./quarantine.ts";

const TELEGRAM_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_x";
const PHRASE = generateMnemonic(wordlist);
const NEAR_KEY = nearSecretKey(newKey()).slice("ed25519:".length);

let server: TestServer;
const recorder = recordingDistributor();
const ownerKey = newKey();
const cookies: Record<string, string> = {};
const owner = ownerKey.implicitAccountId;

beforeAll(async () => {
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      // Registration refuses entry points from hosts the operator has not allowed (decision 0022).
      PLUGIN_ALLOWED_HOSTS: "plugins.acme.test",
    },
    { worker: { extraPlugins: [recorder.plugin] } },
  );
  cookies.owner = (await signIn(server, ownerKey)).cookie;
  cookies.stranger = (await signIn(server)).cookie;
  // Registered, so that saved configs may name the test's recording distributor.
  await server.db.insert(plugins).values({
    name: recorder.plugin.name,
    type: "distributor",
    repoUrl: "https://github.com/curate/test-recorder",
    entryPoint: "https://plugins.acme.test/recorder/index.js",
    createdBy: "someone.near",
  });
});
afterAll(() => server?.close());

const send = (method: string, path: string, who: string | null, body?: unknown) =>
  server.json(path, {
    method,
    headers: who
      ? sessionHeaders(server, cookies[who])
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const read = (path: string, who: string | null = null) =>
  server.json(path, { headers: who ? sessionHeaders(server, cookies[who]) : {} });

/** A log that keeps its lines, to read what the operator is told. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines, text: () => JSON.stringify(lines) };
}

const cleanConfig = (id: string) => ({
  id,
  name: `Feed ${id}`,
  description: `About ${id}`,
  outputs: {
    stream: { enabled: true, distribute: [{ plugin: "@test/recorder", config: { channel: "news" } }] },
  },
});

/** Each shape the scan used to miss, as a config would carry it, and where. */
const SHAPES: Array<[string, Record<string, unknown>, string]> = [
  ["a BIP-39 seed phrase", { wallet: `words: ${PHRASE}` }, "customField.wallet"],
  ["an unprefixed NEAR key", { signer: NEAR_KEY }, "customField.signer"],
  ["a pwd field", { pwd: "hunter2" }, "customField.pwd"],
  ["a passwd field", { login: { passwd: "hunter2" } }, "customField.login.passwd"],
  [
    "a key in a URL's query",
    { endpoint: "https://api.example.com/v1/items?api_key=8f14e45fceea167a" },
    "customField.endpoint",
  ],
  [
    "a token in a URL's query",
    { feedUrl: "https://rss.example.com/private.xml?token=4f9a2c7e1b3d5f6a8c0e" },
    "customField.feedUrl",
  ],
  [
    "a Telegram token in a /bot path",
    { endpoint: `https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage` },
    "customField.endpoint",
  ],
  ["a Cookie header", { headers: { Cookie: "sid=1" } }, "customField.headers.Cookie"],
  [
    "a cookie header's value",
    { session: "sessionid=8f14e45fceea167a5a36dedd4bea2543; csrftoken=Xy12Ab34Cd56Ef78Gh90" },
    "customField.session",
  ],
];

describe("feed writes refuse the shapes the scan used to miss", () => {
  it.each(SHAPES)("refuses %s on create, naming its path", async (_label, shape, path) => {
    const { status, body } = await send("POST", "/api/feeds", "owner", {
      ...cleanConfig("leaky"),
      customField: shape,
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details).toEqual(
      expect.arrayContaining([{ path, message: expect.stringMatching(/PLACEHOLDER/) }]),
    );
    expect((await read("/api/feeds/leaky")).status).toBe(404);
  });

  it.each(SHAPES)("refuses %s on a save, and keeps the stored config", async (_label, shape, path) => {
    if ((await read("/api/feeds/tidy")).status === 404) {
      expect((await send("POST", "/api/feeds", "owner", cleanConfig("tidy"))).status).toBe(201);
    }
    const { status, body } = await send("PUT", "/api/feeds/tidy", "owner", {
      ...cleanConfig("tidy"),
      customField: shape,
    });
    expect(status).toBe(400);
    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect((await read("/api/feeds/tidy")).body.data.config).not.toHaveProperty("customField");
  });
});

describe("plugin registrations refuse them too", () => {
  let registered = 0;
  const registration = () => {
    registered++;
    return {
      name: `@acme/plugin-${registered}`,
      repoUrl: `https://github.com/acme/plugin-${registered}`,
      type: "transformer",
      entryPoint: `https://plugins.acme.test/plugin-${registered}/index.js`,
      schemaDefinition: { type: "object", properties: { suffix: { type: "string" } } },
    };
  };
  const schemaWith = (property: string, value: unknown) => ({
    type: "object",
    properties: { [property]: { type: "string", description: "Kept as a placeholder", default: value } },
  });

  it.each([
    [
      "a token in the entry point's query",
      { entryPoint: "https://plugins.acme.test/x/index.js?access_token=ya29a0AfH6SMBx" },
      "entryPoint",
    ],
    [
      "a seed phrase as a default",
      { schemaDefinition: schemaWith("words", PHRASE) },
      "schemaDefinition.properties.words.default",
    ],
    [
      "a NEAR key as a default",
      { schemaDefinition: schemaWith("signer", NEAR_KEY) },
      "schemaDefinition.properties.signer.default",
    ],
    [
      "a pwd default",
      { schemaDefinition: schemaWith("pwd", "hunter2") },
      "schemaDefinition.properties.pwd.default",
    ],
    [
      "a cookie default",
      { schemaDefinition: schemaWith("session", "Cookie: sid=0123456789abcdefghij") },
      "schemaDefinition.properties.session.default",
    ],
    [
      "a Telegram bot URL default",
      { schemaDefinition: schemaWith("endpoint", `https://api.telegram.org/bot${TELEGRAM_TOKEN}/`) },
      "schemaDefinition.properties.endpoint.default",
    ],
  ])("refuses %s on registration and on update, naming its path", async (_label, fields, path) => {
    const refused = await send("POST", "/api/plugins", "owner", { ...registration(), ...fields });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_ERROR");
    expect(refused.body.error.details).toEqual([{ path, message: expect.stringMatching(/PLACEHOLDER/) }]);

    const created = await send("POST", "/api/plugins", "owner", registration());
    expect(created.status).toBe(201);
    const updated = await send("PATCH", `/api/plugins/${created.body.data.id}`, "owner", fields);
    expect(updated.status).toBe(400);
    expect(updated.body.error.details).toEqual([expect.objectContaining({ path })]);
  });

  it("still registers a schema that describes credential fields with placeholders", async () => {
    const created = await send("POST", "/api/plugins", "owner", {
      ...registration(),
      schemaDefinition: schemaWith("apiKey", "{{ACME_API_KEY}}"),
    });
    expect(created.status).toBe(201);
    expect(created.body.data.quarantine).toBeNull();
  });
});

describe("configs stored before the scan knew their shape", () => {
  const leakyFeed = {
    ...cleanConfig("oldleak"),
    sources: [{ plugin: "@curate/test-source", search: [{ query: "solar" }] }],
    outputs: {
      stream: {
        enabled: true,
        distribute: [
          { plugin: "@curate/rss", config: {} },
          { plugin: "@test/recorder", config: { channel: "news", mnemonic: PHRASE } },
        ],
      },
    },
  };
  const pluginRow = {
    name: "@acme/oldleak",
    type: "transformer" as const,
    repoUrl: "https://github.com/acme/oldleak",
    entryPoint: "https://plugins.acme.test/oldleak/index.js",
    schemaDefinition: { type: "object", properties: { signer: { type: "string", default: NEAR_KEY } } },
    createdBy: owner,
  };
  const log = capturingLogger();
  let pluginId = "";
  let firstPass: Awaited<ReturnType<typeof quarantineStoredSecrets>>;

  beforeAll(async () => {
    // As the code before the scan knew these shapes let them be stored.
    await insertFeed(server.db, { id: "oldleak", createdBy: owner, config: leakyFeed });
    await insertFeed(server.db, {
      id: "oldclean",
      createdBy: owner,
      config: { ...cleanConfig("oldclean"), sources: leakyFeed.sources },
    });
    const [row] = await server.db.insert(plugins).values(pluginRow).returning();
    pluginId = String(row.id);
    // Served to anyone, as they were.
    expect(JSON.stringify((await read("/api/feeds/oldleak")).body)).toContain(PHRASE);
    expect(JSON.stringify((await read(`/api/plugins/${pluginId}`)).body)).toContain(NEAR_KEY);
    expect((await server.request("/rss/oldleak/rss.xml")).status).toBe(200);

    firstPass = await quarantineStoredSecrets(server.db, log.logger);
  });

  it("finds them and tells the operator once which ones and where, never the values", async () => {
    const recorderPath = "outputs.stream.distribute.1.config.mnemonic";
    expect(firstPass.feeds).toEqual([
      {
        id: "oldleak",
        owner,
        findings: [{ path: recorderPath, message: expect.stringMatching(/seed phrase/) }],
      },
    ]);
    expect(firstPass.plugins).toEqual([
      expect.objectContaining({
        name: "@acme/oldleak",
        findings: [expect.objectContaining({ path: "schemaDefinition.properties.signer.default" })],
      }),
    ]);
    const warnings = log.lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/rotate/);
    expect(warnings[0]).toMatchObject({
      feeds: [{ id: "oldleak", owner, paths: [recorderPath] }],
      plugins: [{ name: "@acme/oldleak", paths: ["schemaDefinition.properties.signer.default"] }],
    });
    expect(log.text()).not.toContain(PHRASE.split(" ").slice(0, 3).join(" "));
    expect(log.text()).not.toContain(NEAR_KEY);

    // A second pass (the next start-up) finds the same and changes nothing.
    const again = await quarantineStoredSecrets(server.db, pino({ level: "silent" }));
    expect(again).toEqual({ ...firstPass, changed: 0 });
    expect(firstPass.changed).toBe(2);
  });

  it("hides the feed from anonymous readers and strangers: page, lists, RSS and OPML", async () => {
    for (const who of [null, "stranger"]) {
      expect((await read("/api/feeds/oldleak", who)).status).toBe(404);
      expect(JSON.stringify((await read(`/api/users/${owner}/feeds`, who)).body)).not.toContain("oldleak");
    }
    const list = await read("/api/feeds");
    expect(list.body.data.map((feed: { id: string }) => feed.id)).toContain("oldclean");
    expect(list.body.data.map((feed: { id: string }) => feed.id)).not.toContain("oldleak");
    expect((await server.request("/rss/oldleak/rss.xml")).status).toBe(404);
    expect(await (await server.request("/rss/opml.xml")).text()).not.toContain("oldleak");
  });

  it("shows it, flagged, to its owner, in an answer no cache keeps", async () => {
    const mine = await read("/api/feeds/oldleak", "owner");
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toContain("no-store");
    expect(mine.body.data.quarantine).toEqual({
      findings: [{ path: "outputs.stream.distribute.1.config.mnemonic", message: expect.any(String) }],
    });
    const listed = await read(`/api/users/${owner}/feeds`, "owner");
    expect(listed.body.data.map((feed: { id: string }) => feed.id)).toContain("oldleak");
    expect((await read("/api/feeds/oldclean", "owner")).body.data.quarantine).toBeNull();
  });

  it("hides the plugin from everyone but its registrant", async () => {
    for (const who of [null, "stranger"]) {
      expect((await read(`/api/plugins/${pluginId}`, who)).status).toBe(404);
      const listed = await read("/api/plugins?name=oldleak", who);
      expect(listed.body.data.items).toEqual([]);
      expect(listed.body.data.pagination.totalCount).toBe(0);
    }
    const mine = await read(`/api/plugins/${pluginId}`, "owner");
    expect(mine.body.data.quarantine.findings).toEqual([
      expect.objectContaining({ path: "schemaDefinition.properties.signer.default" }),
    ]);
    expect((await read("/api/plugins?name=oldleak", "owner")).body.data.items).toHaveLength(1);
  });

  it("runs neither its intake nor its distribution", async () => {
    const searched: string[] = [];
    const source = {
      async search(spec: SearchSpec) {
        searched.push(spec.query ?? "");
        return { posts: [], cursor: null };
      },
    };
    await runFeedSources(server.db, { searchSourceFor: () => source }, pino({ level: "silent" }));
    // oldclean has the same source: it ran once, oldleak's did not.
    expect(searched).toEqual(["solar"]);

    recorder.reset();
    const { tweetId } = await insertSubmission(server.db, {
      content: "A post",
      feeds: [{ feedId: "oldleak" }],
    });
    const approved = await send("POST", "/api/moderate", "owner", {
      submissionId: tweetId,
      feedId: "oldleak",
      action: "approve",
    });
    expect(approved.status).toBe(200);
    const job = await finished(approved.body.data.processingJobId);
    expect(job.status).toBe("failed");
    expect(job.note).toContain("outputs.stream.distribute.1.config.mnemonic");
    expect(recorder.deliveries).toEqual([]);
  });

  it("ends when its owner saves a clean config, and its jobs can then run", async () => {
    const { mnemonic: _, ...recorderConfig } = leakyFeed.outputs.stream.distribute[1].config;
    const clean = {
      ...leakyFeed,
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            leakyFeed.outputs.stream.distribute[0],
            { plugin: "@test/recorder", config: recorderConfig },
          ],
        },
      },
    };
    const saved = await send("PUT", "/api/feeds/oldleak", "owner", clean);
    expect(saved.status).toBe(200);
    expect(saved.body.data.quarantine).toBeNull();
    expect((await read("/api/feeds/oldleak")).status).toBe(200);
    expect((await server.request("/rss/oldleak/rss.xml")).status).toBe(200);

    const [failed] = await server.db
      .select()
      .from(processingJobs)
      .where(eq(processingJobs.feedId, "oldleak"));
    const reprocessed = await send("POST", `/api/processing/jobs/${failed.id}/reprocess`, "owner");
    expect(reprocessed.status).toBe(201);
    expect((await finished(reprocessed.body.data.job.id)).status).toBe("completed");
    expect(recorder.deliveries).toHaveLength(1);
  });

  it("ends for a plugin when its registrant saves a clean schema", async () => {
    const updated = await send("PATCH", `/api/plugins/${pluginId}`, "owner", {
      schemaDefinition: {
        type: "object",
        properties: { signer: { type: "string", default: "{{SIGNER_KEY}}" } },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.quarantine).toBeNull();
    expect((await read(`/api/plugins/${pluginId}`)).status).toBe(200);
    expect(await quarantineStoredSecrets(server.db, pino({ level: "silent" }))).toEqual({
      feeds: [],
      plugins: [],
      changed: 0,
    });
  });
});

const FINISHED = ["completed", "failed", "completed_with_errors", "cancelled"];

async function finished(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    if (job && FINISHED.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
