import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeSupabase } from "../../../test/fakes/supabase.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED, PluginError } from "../types.ts";
import { createSupabaseDistributor } from "./supabase.ts";

const SERVICE_KEY = "eyJhbGciOiJIUzI1NiJ9.service-role.fake";
const ANON_KEY = "eyJhbGciOiJIUzI1NiJ9.anon.fake";
let supabase: Awaited<ReturnType<typeof startFakeSupabase>>;
const plugin = createSupabaseDistributor({ allowedHosts: ["127.0.0.1"] });

const columns = {
  title: "title",
  body: "content",
  link: "url",
  author: "username",
  tags: "tags",
  submitted_at: "submittedAt",
};

const configOf = (config: Record<string, unknown> = {}, key = SERVICE_KEY) =>
  stepConfig(
    plugin,
    { url: supabase.url, key: "{{SUPABASE_KEY}}", table: "posts", columns, ...config },
    { feed: { SUPABASE_KEY: key } },
  );

const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://x.com/amy/status/1900000000000000001",
  username: "amy",
  tags: ["solar", "energy"],
  submittedAt: "2026-11-20T10:00:00.000Z",
};

beforeAll(async () => {
  supabase = await startFakeSupabase({
    serviceKey: SERVICE_KEY,
    readOnlyKeys: [ANON_KEY],
    tables: [
      {
        name: "posts",
        columns: ["id", "title", "body", "link", "author", "tags", "submitted_at", "curate_key"],
        unique: ["curate_key", "link"],
      },
      { name: "items", columns: ["id", "title", "content", "url", "username"] },
      { name: "posts", schema: "curation", columns: ["id", "title"] },
    ],
  });
});
afterAll(() => supabase.close());
beforeEach(() => supabase.reset());

describe("Supabase distributor", () => {
  it("inserts the mapped columns through PostgREST and names the row", async () => {
    const { rendered, receipt } = await distribute(plugin, item, configOf());
    const row = {
      title: "Solar got cheaper",
      body: "Panels fell 20% this year.",
      link: "https://x.com/amy/status/1900000000000000001",
      author: "amy",
      tags: ["solar", "energy"],
      submitted_at: "2026-11-20T10:00:00.000Z",
    };
    expect(rendered).toEqual({ action: "insert", request: { schema: "public", table: "posts", row } });
    const [request] = supabase.requests;
    expect(`${request.method} ${request.path}?${request.query}`).toBe("POST /rest/v1/posts?select=*");
    expect(request.headers).toMatchObject({
      apikey: SERVICE_KEY,
      authorization: `Bearer ${SERVICE_KEY}`,
      "content-profile": "public",
      prefer: "return=representation",
    });
    expect(request.body).toEqual(row);
    expect(receipt).toEqual({
      row: { id: 1, curate_key: null, ...row },
      reference: { kind: "supabase-row", id: "1" },
    });
  });

  it("inserts the input's own fields without a column map, into another schema when asked", async () => {
    await distribute(
      plugin,
      { title: "x", content: "y", url: "https://a.example/", username: "z" },
      configOf({ table: "items", columns: undefined }),
    );
    expect(supabase.rows("items")).toEqual([
      { id: 1, title: "x", content: "y", url: "https://a.example/", username: "z" },
    ]);
    await distribute(plugin, item, configOf({ schema: "curation", columns: { title: "title" } }));
    expect(supabase.requests[1].headers["content-profile"]).toBe("curation");
    expect(supabase.rows("posts", "curation")).toHaveLength(1);
  });

  it("stores a hostile or over-long item byte for byte", async () => {
    const hostile = {
      ...item,
      title: "'); drop table posts; -- <script>alert(1)</script> ]]> \u202Egnp.exe 👩‍👩‍👧",
      content: "\\x00 $1 {{content}} ".repeat(50_000),
    };
    await distribute(plugin, hostile, configOf());
    const [stored] = supabase.rows("posts");
    expect(stored.title).toBe(hostile.title);
    expect(stored.body).toBe(hostile.content);
  });

  it("keeps one row per publication with an idempotency column", async () => {
    const context = distributionContext({ idempotencyKey: "e".repeat(64) });
    const first = await distribute(plugin, item, configOf({ idempotencyColumn: "curate_key" }), context);
    expect(first.rendered).toMatchObject({
      action: "upsert (ignore duplicates)",
      request: { onConflict: "curate_key", row: { curate_key: "e".repeat(64) } },
    });
    const again = await distribute(plugin, item, configOf({ idempotencyColumn: "curate_key" }), context);
    expect(supabase.rows("posts")).toHaveLength(1);
    expect(again.receipt).toMatchObject({ existing: true, reference: { id: first.receipt.reference?.id } });
    const [insert, retry, lookup] = supabase.requests;
    expect(insert.query.get("on_conflict")).toBe("curate_key");
    expect(insert.headers.prefer).toContain("resolution=ignore-duplicates");
    expect(retry.method).toBe("POST");
    expect(`${lookup.method} ${lookup.query}`).toBe(`GET select=*&curate_key=eq.${"e".repeat(64)}&limit=1`);
  });

  it("takes its key only from the feed's own secrets, and refuses non-public project URLs", async () => {
    expect(() =>
      stepConfig(
        plugin,
        { url: supabase.url, key: "{{SUPABASE_KEY}}", table: "posts" },
        { server: { SUPABASE_KEY: SERVICE_KEY } },
      ),
    ).toThrow(PluginError);
    const guarded = createSupabaseDistributor({ allowedHosts: [] });
    const config = stepConfig(
      guarded,
      { url: supabase.url, key: "{{K}}", table: "posts" },
      { feed: { K: SERVICE_KEY } },
    );
    expect(await failure(distribute(guarded, item, config))).toMatchObject({
      code: "SUPABASE_URL_REFUSED",
      retryable: false,
    });
    expect(supabase.requests).toHaveLength(0);
  });
});

describe("Supabase errors say what to fix", () => {
  it("a refused key, and a key whose role may not insert", async () => {
    const wrong = await failure(distribute(plugin, item, configOf({}, "eyJ.wrong")));
    expect(wrong).toMatchObject({
      code: CREDENTIALS_REJECTED,
      message: expect.stringMatching(/Invalid API key.*feed secret behind key/),
    });
    const anon = await failure(distribute(plugin, item, configOf({}, ANON_KEY)));
    expect(anon).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(anon.message).toMatch(/42501.*row-level security.*service role key/);
  });

  it("an unknown table or column, and a duplicate", async () => {
    expect(await failure(distribute(plugin, item, configOf({ table: "postz" })))).toMatchObject({
      code: "SUPABASE_TABLE_NOT_FOUND",
      message: expect.stringMatching(/public\.postz.*check table and schema/),
    });
    expect(await failure(distribute(plugin, item, configOf({ columns: { titel: "title" } })))).toMatchObject({
      code: "SUPABASE_COLUMN_NOT_FOUND",
      message: expect.stringMatching(/'titel' column.*check columns/),
    });
    await distribute(plugin, item, configOf());
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "SUPABASE_DUPLICATE",
      retryable: false,
      message: expect.stringMatching(/Key \(link\)/),
    });
  });

  it("outages and rate limits are retryable", async () => {
    supabase.answerNext({
      status: 503,
      body: {
        code: "PGRST002",
        message: "Could not query the database for the schema cache. Retrying.",
        details: null,
        hint: null,
      },
    });
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "SUPABASE_UNAVAILABLE",
      retryable: true,
    });
    supabase.answerNext({ status: 429, body: { message: "Too many requests" } });
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "SUPABASE_UNAVAILABLE",
      retryable: true,
    });
    const away = stepConfig(
      plugin,
      { url: "http://127.0.0.1:9", key: "{{K}}", table: "posts" },
      { feed: { K: SERVICE_KEY } },
    );
    expect(await failure(distribute(plugin, item, away))).toMatchObject({
      code: "SUPABASE_UNREACHABLE",
      retryable: true,
    });
  });
});
