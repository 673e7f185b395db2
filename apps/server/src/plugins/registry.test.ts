import { pluginNameProblem } from "@curate/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

let server: TestServer;
const superKey = newKey();
const cookies: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "1000",
    SUPER_ADMIN_ACCOUNTS: superKey.implicitAccountId,
    PLUGINS_PER_ACCOUNT: "3",
    PLUGIN_ALLOWED_HOSTS: "plugins.acme.test,a.test",
  });
  cookies.owner = (await signIn(server)).cookie;
  cookies.other = (await signIn(server)).cookie;
  cookies.super = (await signIn(server, superKey)).cookie;
  cookies.capped = (await signIn(server)).cookie;
});
afterAll(() => server?.close());

const valid = {
  name: "@acme/uppercase",
  repoUrl: "https://github.com/acme/uppercase",
  type: "transformer",
  entryPoint: "https://plugins.acme.test/uppercase/index.js",
  schemaDefinition: { type: "object", properties: { suffix: { type: "string" } } },
};

const send = (method: string, path: string, who: string | null, body?: unknown) =>
  server.json(path, {
    method,
    headers: who
      ? sessionHeaders(server, cookies[who])
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const fieldMessages = (body: { error: { details?: { path: string; message: string }[] } }) =>
  Object.fromEntries((body.error.details ?? []).map((d) => [d.path, d.message]));

describe("plugin registry", () => {
  it("lists the built-ins for anyone, read-only, each with its config schema", async () => {
    const { status, body } = await server.json("/api/plugins?limit=100");
    expect(status).toBe(200);
    const rss = body.data.items.find((p: { name: string }) => p.name === "@curate/rss");
    expect(rss).toMatchObject({ id: "builtin-rss", type: "distributor", builtin: true, canEdit: false });
    expect(rss.schemaDefinition).toMatchObject({ type: "object" });
    expect(body.data.pagination).toMatchObject({ page: 0, limit: 100, hasNextPage: false });
    const one = await server.json("/api/plugins/builtin-telegram");
    expect(one.body.data).toMatchObject({ name: "@curate/telegram", builtin: true });
  });

  it("links the built-ins to the deployment's SOURCE_REPOSITORY_URL, and to nothing without it", async () => {
    const builtins = (body: { data: { items: Array<{ builtin: boolean; repoUrl: string | null }> } }) =>
      body.data.items.filter((plugin) => plugin.builtin).map((plugin) => plugin.repoUrl);
    const unset = builtins((await server.json("/api/plugins?limit=100")).body);
    expect(unset.length).toBeGreaterThan(5);
    expect(new Set(unset)).toEqual(new Set([null]));
    expect((await server.json("/api/plugins/builtin-rss")).body.data.repoUrl).toBeNull();

    const published = await startTestServer({ SOURCE_REPOSITORY_URL: "https://git.example.org/ops/curate" });
    try {
      const listed = builtins((await published.json("/api/plugins?limit=100")).body);
      expect(new Set(listed)).toEqual(new Set(["https://git.example.org/ops/curate"]));
      expect((await published.json("/api/plugins/builtin-rss")).body.data.repoUrl).toBe(
        "https://git.example.org/ops/curate",
      );
    } finally {
      await published.close();
    }
  });

  it("needs a session to register (401)", async () => {
    const { status, body } = await send("POST", "/api/plugins", null, valid);
    expect(status).toBe(401);
    expect(body.error.code).toBe("UNAUTHENTICATED");
  });

  it("applies the form's validation, naming each field (400)", async () => {
    const { status, body } = await send("POST", "/api/plugins", "owner", {
      name: " ",
      repoUrl: "not a url",
      type: "widget",
      entryPoint: "ftp://x",
      schemaDefinition: "{nope",
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(fieldMessages(body)).toEqual({
      name: "Plugin name is required",
      repoUrl: "Must be a valid repository URL (e.g., GitHub, GitLab)",
      type: "Plugin type is required",
      entryPoint: "Entry point must be a valid URL (e.g., https://example.com/remoteEntry.js)",
      schemaDefinition: "Invalid JSON for Schema Definition",
    });
  });

  it("refuses a schema definition that is not a usable JSON Schema (400)", async () => {
    const { status, body } = await send("POST", "/api/plugins", "owner", {
      ...valid,
      schemaDefinition: { type: "no-such-type" },
    });
    expect(status).toBe(400);
    expect(fieldMessages(body).schemaDefinition).toMatch(/not a usable JSON Schema/);
  });

  let id: string;
  it("registers a plugin for the signed-in user (201), JSON text or object alike", async () => {
    const { status, body } = await send("POST", "/api/plugins", "owner", {
      ...valid,
      schemaDefinition: JSON.stringify(valid.schemaDefinition),
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      name: valid.name,
      type: "transformer",
      builtin: false,
      canEdit: true,
      schemaDefinition: valid.schemaDefinition,
    });
    id = body.data.id;
    const read = await server.json(`/api/plugins/${id}`);
    expect(read.body.data).toMatchObject({ name: valid.name, canEdit: false });
  });

  it("keeps names unique, and repositories whatever their case (409)", async () => {
    const sameName = await send("POST", "/api/plugins", "other", {
      ...valid,
      name: valid.name,
      repoUrl: "https://github.com/other/x",
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body.error.code).toBe("CONFLICT");
    const sameRepo = await send("POST", "/api/plugins", "other", {
      ...valid,
      name: "@other/x",
      repoUrl: valid.repoUrl.toUpperCase(),
    });
    expect(sameRepo.status).toBe(409);
  });

  it("refuses built-in names, aliases and short names, the reserved scopes and names not @scope/name (400)", async () => {
    for (const name of ["webhook", "@curate/webhook", "@curatedotfun/x", "rss", "Foo", "@Bad/x"]) {
      const { status, body } = await send("POST", "/api/plugins", "other", {
        ...valid,
        name,
        repoUrl: "https://github.com/other/impostor",
      });
      expect(status, name).toBe(400);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(fieldMessages(body), name).toEqual({ name: pluginNameProblem(name) });
    }
    expect(
      fieldMessages((await send("POST", "/api/plugins", "other", { ...valid, name: "rss" })).body),
    ).toEqual({
      name: '"rss" is the built-in plugin @curate/rss: feeds naming it always run the built-in. Name yours under your own scope, e.g. @acme/summary',
    });
    const scoped = await send("POST", "/api/plugins", "other", {
      ...valid,
      name: "@alice/thing",
      repoUrl: "https://github.com/alice/thing",
    });
    expect(scoped.status).toBe(201);
    expect(scoped.body.data.name).toBe("@alice/thing");
    expect((await send("DELETE", `/api/plugins/${scoped.body.data.id}`, "other")).status).toBe(200);
  });

  it("refuses an entry point on a host this server does not run code from, when registered or changed (400)", async () => {
    const refused = await send("POST", "/api/plugins", "other", {
      ...valid,
      name: "@other/elsewhere",
      repoUrl: "https://github.com/other/elsewhere",
      entryPoint: "https://evil.test/x.js",
    });
    expect(refused.status).toBe(400);
    const message =
      "This server runs plugins only from plugins.acme.test, a.test (PLUGIN_ALLOWED_HOSTS): host not allowed: evil.test.";
    expect(refused.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: `Entry point refused: ${message}`,
    });
    expect(fieldMessages(refused.body)).toEqual({ entryPoint: message });
    expect((await server.json("/api/plugins?name=elsewhere")).body.data.items).toEqual([]);

    const moved = await send("PATCH", `/api/plugins/${id}`, "owner", {
      entryPoint: "https://evil.test/x.js",
    });
    expect(moved.status).toBe(400);
    expect(fieldMessages(moved.body)).toEqual({ entryPoint: message });
    expect((await server.json(`/api/plugins/${id}`)).body.data.entryPoint).toBe(valid.entryPoint);
  });

  it("filters by type and name, and pages", async () => {
    const byType = await server.json("/api/plugins?type=transformer&limit=100");
    expect(byType.body.data.items.every((p: { type: string }) => p.type === "transformer")).toBe(true);
    expect(byType.body.data.items.map((p: { name: string }) => p.name)).toContain(valid.name);
    const byName = await server.json("/api/plugins?name=UPPER");
    expect(byName.body.data.items.map((p: { name: string }) => p.name)).toEqual([valid.name]);
    const literal = await server.json(`/api/plugins?name=${encodeURIComponent("%")}`);
    expect(literal.body.data.items).toEqual([]);
    const first = await server.json("/api/plugins?limit=5");
    const total = first.body.data.pagination.totalCount;
    expect(first.body.data.items).toHaveLength(5);
    expect(first.body.data.pagination.hasNextPage).toBe(true);
    const last = await server.json(`/api/plugins?limit=5&page=${Math.floor((total - 1) / 5)}`);
    expect(last.body.data.items.at(-1).name).toBe(valid.name);
    expect(last.body.data.pagination.hasNextPage).toBe(false);
    for (const bad of ["type=widget", "limit=0", "limit=101", "page=-1"]) {
      expect((await server.json(`/api/plugins?${bad}`)).status).toBe(400);
    }
  });

  it("lets only the registrant or a super admin edit, and never a built-in (403)", async () => {
    expect(
      (await send("PATCH", `/api/plugins/${id}`, null, { entryPoint: "https://a.test/x.js" })).status,
    ).toBe(401);
    const stranger = await send("PATCH", `/api/plugins/${id}`, "other", {
      entryPoint: "https://a.test/x.js",
    });
    expect(stranger.status).toBe(403);
    const builtin = await send("PATCH", "/api/plugins/builtin-rss", "super", {
      entryPoint: "https://a.test/x.js",
    });
    expect(builtin.status).toBe(403);
    expect(
      (await send("PATCH", "/api/plugins/999999", "owner", { entryPoint: "https://a.test/x.js" })).status,
    ).toBe(404);

    const own = await send("PATCH", `/api/plugins/${id}`, "owner", {
      entryPoint: "https://plugins.acme.test/uppercase/v2.js",
    });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ entryPoint: "https://plugins.acme.test/uppercase/v2.js" });
    expect(own.body.data.schemaDefinition).toEqual(valid.schemaDefinition);

    const bySuper = await send("PATCH", `/api/plugins/${id}`, "super", { schemaDefinition: null });
    expect(bySuper.status).toBe(200);
    expect(bySuper.body.data.schemaDefinition).toBeNull();
  });

  it("validates edits with the edit form's messages, and keeps name and repository fixed (400)", async () => {
    const bad = await send("PATCH", `/api/plugins/${id}`, "owner", {
      entryPoint: "nope",
      schemaDefinition: "[1,",
    });
    expect(bad.status).toBe(400);
    expect(fieldMessages(bad.body)).toEqual({
      entryPoint: "Entry point must be a valid URL",
      schemaDefinition: "Invalid JSON for Schema Definition",
    });
    const rename = await send("PATCH", `/api/plugins/${id}`, "owner", { name: "@acme/renamed" });
    expect(rename.status).toBe(400);
  });

  it("checks a feed config naming a registered plugin against its schema definition", async () => {
    const made = await send("POST", "/api/plugins", "other", {
      ...valid,
      name: "@other/tagger",
      repoUrl: "https://github.com/other/tagger",
      schemaDefinition: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] },
    });
    expect(made.status).toBe(201);
    const feed = (config: unknown) => ({
      id: `tagged${Math.floor(Math.random() * 1e6)}`,
      name: "Tagged feed",
      description: "A feed whose posts get a tag",
      outputs: { stream: { enabled: true, transform: [{ plugin: "@other/tagger", config }] } },
    });
    const bad = await send("POST", "/api/feeds", "other", feed({ tag: 7 }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({
      path: "outputs.stream.transform.0.config.tag",
      message: "must be string",
    });
    expect((await send("POST", "/api/feeds", "other", feed({ tag: "solar" }))).status).toBe(201);
  });

  it("caps how many plugins one account registers (403)", async () => {
    for (let i = 0; i < 3; i++) {
      const made = await send("POST", "/api/plugins", "capped", {
        ...valid,
        name: `@capped/p${i}`,
        repoUrl: `https://github.com/capped/p${i}`,
      });
      expect(made.status).toBe(201);
    }
    const over = await send("POST", "/api/plugins", "capped", {
      ...valid,
      name: "@capped/p3",
      repoUrl: "https://github.com/capped/p3",
    });
    expect(over.status).toBe(403);
  });

  it("lets only the registrant or a super admin delete (403, then 200, then 404)", async () => {
    expect((await send("DELETE", `/api/plugins/${id}`, "other")).status).toBe(403);
    expect((await send("DELETE", "/api/plugins/builtin-rss", "super")).status).toBe(403);
    const gone = await send("DELETE", `/api/plugins/${id}`, "owner");
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id, deleted: true });
    expect((await server.json(`/api/plugins/${id}`)).status).toBe(404);
    expect((await send("DELETE", `/api/plugins/${id}`, "owner")).status).toBe(404);
    expect((await server.json("/api/plugins/not-a-plugin")).status).toBe(404);
  });
});
