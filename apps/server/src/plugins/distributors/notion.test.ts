import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeNotion } from "../../../test/fakes/notion.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED } from "../types.ts";
import { createNotionDistributor, NOTION_LIMITS, type NotionPageRequest } from "./notion.ts";

const TOKEN = "ntn_fake_integration_secret";
const DATABASE = "b7c1e2f4a9d84c3e8f2a61d0c5e7b913";
const READ_ONLY = "c0ffee00a9d84c3e8f2a61d0c5e7b913";
/** A database with two data sources (tables), as Notion has had since API version 2025-09-03. */
const TWO_SOURCES = "d15c0000a9d84c3e8f2a61d0c5e7b913";
const ARTICLES = "a57c1e50-0000-4000-8000-000000000001";
const VIDEOS = "a57c1e50-0000-4000-8000-000000000002";
let notion: Awaited<ReturnType<typeof startFakeNotion>>;
let plugin: ReturnType<typeof createNotionDistributor>;

const fields = {
  title: { type: "title", property: "Name" },
  content: { type: "rich_text", property: "Summary" },
  url: { type: "url", property: "Link" },
  createdAt: { type: "date", property: "Published" },
  score: { type: "number", property: "Score" },
  featured: { type: "checkbox", property: "Featured" },
  tags: { type: "multi_select", property: "Tags" },
  category: { type: "select", property: "Category" },
  email: { type: "email", property: "Contact" },
  "author.phone": { type: "phone", property: "Phone" },
};

const configOf = (config: Record<string, unknown> = {}, token = TOKEN) =>
  stepConfig(
    plugin,
    { token: "{{NOTION_TOKEN}}", databaseId: DATABASE, fields, ...config },
    { server: { NOTION_TOKEN: token } },
  );

const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://x.com/amy/status/1900000000000000001",
  createdAt: "2026-11-20T10:00:00.000Z",
  score: "42",
  featured: "yes",
  tags: ["solar", "energy"],
  category: "News",
  email: "amy@example.com",
  author: { phone: "+1 555 0100" },
};

beforeAll(async () => {
  notion = await startFakeNotion({
    token: TOKEN,
    databases: [
      {
        id: DATABASE,
        properties: {
          Name: "title",
          Summary: "rich_text",
          Link: "url",
          Published: "date",
          Score: "number",
          Featured: "checkbox",
          Tags: "multi_select",
          Category: "select",
          Contact: "email",
          Phone: "phone_number",
          Key: "rich_text",
        },
      },
      { id: READ_ONLY, properties: { Name: "title" }, readOnly: true },
      {
        id: TWO_SOURCES,
        properties: { Name: "title" },
        dataSources: [
          {
            id: ARTICLES,
            name: "Articles",
            properties: { Name: "title", Summary: "rich_text", Key: "rich_text" },
          },
          { id: VIDEOS, name: "Videos", properties: { Name: "title" } },
        ],
      },
    ],
  });
  plugin = createNotionDistributor({ baseUrl: notion.baseUrl });
});
afterAll(() => notion.close());
beforeEach(() => notion.reset());

const text = (content: string) => [{ type: "text", text: { content } }];

describe("Notion distributor", () => {
  it("creates a page whose properties come from the mapped fields, typed as the database wants", async () => {
    const { rendered, receipt } = await distribute(plugin, item, configOf());
    expect(rendered).toEqual({
      action: "pages.create",
      request: {
        parent: { type: "database_id", database_id: "b7c1e2f4-a9d8-4c3e-8f2a-61d0c5e7b913" },
        properties: {
          Name: { title: text("Solar got cheaper") },
          Summary: { rich_text: text("Panels fell 20% this year.") },
          Link: { url: "https://x.com/amy/status/1900000000000000001" },
          Published: { date: { start: "2026-11-20T10:00:00.000Z" } },
          Score: { number: 42 },
          Featured: { checkbox: true },
          Tags: { multi_select: [{ name: "solar" }, { name: "energy" }] },
          Category: { select: { name: "News" } },
          Contact: { email: "amy@example.com" },
          Phone: { phone_number: "+1 555 0100" },
        },
      },
    });
    // The database's one data source is looked up, and the page created in it.
    const [lookup, request] = notion.requests;
    expect(`${lookup.method} ${lookup.path}`).toBe("GET /v1/databases/b7c1e2f4-a9d8-4c3e-8f2a-61d0c5e7b913");
    expect(request.path).toBe("/v1/pages");
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers["notion-version"]).toBe("2025-09-03");
    expect(request.body).toEqual({
      ...(rendered.request as NotionPageRequest),
      parent: { type: "data_source_id", data_source_id: "b7c1e2f4a9d84c3e8f2a61d000000000" },
    });
    expect(notion.pages[0].dataSourceId).toBe("b7c1e2f4a9d84c3e8f2a61d000000000");
    expect(receipt).toEqual({
      pageId: notion.pages[0].id,
      reference: { kind: "notion-page", id: notion.pages[0].id, url: notion.pages[0].url },
    });
  });

  it("writes a hostile item as plain text and leaves out values a property cannot take", async () => {
    const hostile = {
      ...item,
      title: "<script>alert(1)</script> ]]> \u202Egnp.exe 👩‍👩‍👧",
      content: "**bold** [x](javascript:alert(1))",
      url: "javascript:alert(1)",
      score: "lots",
      tags: ["a,b", "a,b", "x".repeat(150), ""],
      email: "not an email",
    };
    const { rendered } = await distribute(plugin, hostile, configOf());
    const properties = (rendered.request as { properties: Record<string, unknown> }).properties;
    expect(properties.Name).toEqual({ title: text("<script>alert(1)</script> ]]> gnp.exe 👩‍👩‍👧") });
    expect(properties.Summary).toEqual({ rich_text: text("**bold** [x](javascript:alert(1))") });
    expect(properties).not.toHaveProperty("Link");
    expect(properties).not.toHaveProperty("Score");
    expect(properties).not.toHaveProperty("Contact");
    expect(properties.Tags).toEqual({ multi_select: [{ name: "a b" }, { name: `${"x".repeat(99)}…` }] });
    expect(notion.pages).toHaveLength(1);
  });

  it("splits long text into 2,000-character pieces, at most 100, and keeps 100 options", async () => {
    const long = {
      ...item,
      content: `${"Solar ☀️ panels. ".repeat(400)}`,
      title: "T".repeat(250_000),
      tags: Array.from({ length: 150 }, (_, i) => `tag-${i}`),
    };
    const { rendered } = await distribute(plugin, long, configOf());
    const { properties } = rendered.request as NotionPageRequest;
    const summary = "rich_text" in properties.Summary ? properties.Summary.rich_text : [];
    expect(summary.length).toBe(4);
    expect(summary.every((piece) => piece.text.content.length <= NOTION_LIMITS.textContent)).toBe(true);
    expect(summary.map((piece) => piece.text.content).join("")).toBe(long.content.trim());
    const title = "title" in properties.Name ? properties.Name.title : [];
    expect(title.length).toBe(NOTION_LIMITS.richTextItems);
    expect(title.at(-1)?.text.content.endsWith("…")).toBe(true);
    expect("multi_select" in properties.Tags && properties.Tags.multi_select).toHaveLength(
      NOTION_LIMITS.multiSelectOptions,
    );
    expect(notion.pages).toHaveLength(1);
  });

  it("finds the page of a retried publication through the idempotency property instead of adding another", async () => {
    const context = distributionContext({ idempotencyKey: "d".repeat(64) });
    const first = await distribute(plugin, item, configOf({ idempotencyProperty: "Key" }), context);
    expect((first.rendered.request as { properties: Record<string, unknown> }).properties.Key).toEqual({
      rich_text: text("d".repeat(64)),
    });
    const again = await distribute(plugin, item, configOf({ idempotencyProperty: "Key" }), context);
    expect(notion.pages).toHaveLength(1);
    expect(again.receipt).toMatchObject({ existing: true, reference: { id: first.receipt.reference?.id } });
    expect(notion.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/databases/b7c1e2f4-a9d8-4c3e-8f2a-61d0c5e7b913`,
      expect.stringMatching(/^POST \/v1\/data_sources\/\w+\/query$/),
      "POST /v1/pages",
      `GET /v1/databases/b7c1e2f4-a9d8-4c3e-8f2a-61d0c5e7b913`,
      expect.stringMatching(/^POST \/v1\/data_sources\/\w+\/query$/),
    ]);
  });

  it("creates the page in the data source the config names, without looking the database up", async () => {
    const config = configOf({
      databaseId: TWO_SOURCES,
      dataSourceId: VIDEOS.replace(/-/g, ""),
      fields: { title: { type: "title", property: "Name" } },
    });
    const { rendered, receipt } = await distribute(plugin, item, config);
    expect((rendered.request as NotionPageRequest).parent).toEqual({
      type: "data_source_id",
      data_source_id: VIDEOS,
    });
    expect(notion.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/pages"]);
    expect(notion.pages).toEqual([expect.objectContaining({ dataSourceId: VIDEOS, id: receipt.pageId })]);
  });

  it("refuses to guess between a database's data sources, naming them", async () => {
    const config = configOf({
      databaseId: TWO_SOURCES,
      fields: { title: { type: "title", property: "Name" } },
    });
    const error = await failure(distribute(plugin, item, config));
    expect(error).toMatchObject({ code: "NOTION_DATA_SOURCE_AMBIGUOUS", retryable: false });
    expect(error.message).toBe(
      `Notion database d15c0000-a9d8-4c3e-8f2a-61d0c5e7b913 has 2 data sources: "Articles" (${ARTICLES}), "Videos" (${VIDEOS}). Set dataSourceId to the one pages go to.`,
    );
    expect(notion.pages).toHaveLength(0);
    // The idempotency lookup and the page go to the chosen one.
    const context = distributionContext({ idempotencyKey: "e".repeat(64) });
    const chosen = configOf({
      databaseId: TWO_SOURCES,
      dataSourceId: ARTICLES,
      fields: {
        title: { type: "title", property: "Name" },
        content: { type: "rich_text", property: "Summary" },
      },
      idempotencyProperty: "Key",
    });
    await distribute(plugin, item, chosen, context);
    await distribute(plugin, item, chosen, context);
    expect(notion.pages).toEqual([expect.objectContaining({ dataSourceId: ARTICLES })]);
    expect(notion.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      `/v1/data_sources/${ARTICLES}/query`,
      "/v1/pages",
      `/v1/data_sources/${ARTICLES}/query`,
    ]);
  });

  it("refuses an item none of whose mapped fields has a value", async () => {
    const error = await failure(plugin.render({ other: 1 }, configOf(), distributionContext()));
    expect(error).toMatchObject({ code: "NOTION_EMPTY_PAGE", retryable: false });
  });
});

describe("Notion errors say what to fix", () => {
  it("a refused secret, a database it cannot see, a database it may not write", async () => {
    const token = await failure(distribute(plugin, item, configOf({}, "ntn_wrong")));
    expect(token).toMatchObject({
      code: CREDENTIALS_REJECTED,
      message: expect.stringMatching(/check the variable behind token/),
    });
    const missing = await failure(
      distribute(plugin, item, configOf({ databaseId: "0123456789abcdef0123456789abcdef" })),
    );
    expect(missing).toMatchObject({ code: "NOTION_NOT_FOUND", retryable: false });
    expect(missing.message).toMatch(/add the integration to the database's Connections/);
    const restricted = await failure(
      distribute(
        plugin,
        item,
        configOf({ databaseId: READ_ONLY, fields: { title: { type: "title", property: "Name" } } }),
      ),
    );
    expect(restricted).toMatchObject({
      code: CREDENTIALS_REJECTED,
      message: expect.stringMatching(/Insert content/),
    });
  });

  it("a property the database does not have", async () => {
    const error = await failure(
      distribute(plugin, item, configOf({ fields: { title: { type: "title", property: "Headline" } } })),
    );
    expect(error).toMatchObject({ code: "NOTION_REJECTED", retryable: false });
    expect(error.message).toMatch(
      /Headline is not a property that exists.*names and types that fields gives them/,
    );
  });

  it("rate limits wait Notion's Retry-After; conflicts, outages and timeouts are retryable", async () => {
    notion.failNext(429, "rate_limited", "You have been rate limited.", { "Retry-After": "2" });
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "NOTION_RATE_LIMITED",
      retryable: true,
      retryAfterMs: 2000,
    });
    notion.failNext(409, "conflict_error", "Conflict occurred while saving.");
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "NOTION_CONFLICT",
      retryable: true,
    });
    notion.failNext(503, "service_unavailable", "Notion is unavailable.");
    expect(await failure(distribute(plugin, item, configOf()))).toMatchObject({
      code: "NOTION_UNAVAILABLE",
      retryable: true,
    });
    const away = createNotionDistributor({ baseUrl: "http://127.0.0.1:9" });
    expect(await failure(distribute(away, item, configOf()))).toMatchObject({
      code: "NOTION_UNREACHABLE",
      retryable: true,
    });
  });
});
