import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeRssService } from "../../../test/fakes/rss-service.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import type { Database } from "../../db/index.ts";
import { CREDENTIALS_REJECTED } from "../types.ts";
import { createRssDistributor } from "./rss.ts";

const SECRET = "rss-service-api-secret";
const PUBLIC_URL = "https://curate.example";
let service: Awaited<ReturnType<typeof startFakeRssService>>;
// The external path never touches this deployment's database.
const plugin = createRssDistributor({
  db: null as unknown as Database,
  publicUrl: PUBLIC_URL,
  allowedHosts: ["127.0.0.1"],
});

const configOf = (config: Record<string, unknown> = {}, secret = SECRET) =>
  stepConfig(
    plugin,
    { serviceUrl: service.url, apiSecret: "{{RSS_API_SECRET}}", ...config },
    { feed: { RSS_API_SECRET: secret } },
  );

const input = {
  title: "Solar got cheaper",
  description: "Panels fell 20%.",
  content: "Panels fell 20% this year.\n\nInstallers are busy.",
  link: "https://x.com/amy/status/1",
  publishedAt: "2026-01-02T03:04:05.000Z",
  author: { name: "amy" },
  categories: ["energy"],
  image: "https://pbs.twimg.com/media/abc.png",
  curatorUsername: "bob",
};
const context = distributionContext({ feedId: "solar" });

beforeAll(async () => {
  service = await startFakeRssService(SECRET);
});
afterAll(() => service.close());
beforeEach(() => service.reset());

describe("RSS distributor, external service", () => {
  it("posts the item to the service's item API with the bearer secret", async () => {
    const { rendered, receipt } = await distribute(plugin, input, configOf(), context);
    const item = {
      title: "Solar got cheaper",
      link: "https://x.com/amy/status/1",
      guid: "https://x.com/amy/status/1",
      description: "Panels fell 20%.",
      content: "<p>Panels fell 20% this year.</p><p>Installers are busy.</p>",
      published: "2026-01-02T03:04:05.000Z",
      date: "2026-01-02T03:04:05.000Z",
      author: [{ name: "amy" }],
      category: [{ name: "energy" }],
      image: "https://pbs.twimg.com/media/abc.png",
    };
    // Credentials stay out of what is rendered (dry runs show it).
    expect(rendered).toEqual({
      action: "POST /api/items",
      request: { url: `${service.url}/api/items`, item },
      shown: expect.objectContaining({ title: "Solar got cheaper", author: "amy", categories: ["energy"] }),
    });
    expect(service.requests).toHaveLength(1);
    const [request] = service.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/items");
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toEqual(item);
    expect(service.items).toEqual([item]);
    expect(receipt).toEqual({
      status: 200,
      guid: "https://x.com/amy/status/1",
      reference: { kind: "rss-item", id: "https://x.com/amy/status/1", url: `${service.url}/solar/rss.xml` },
    });
  });

  it("sends hostile text clean, with the HTML fields escaped", async () => {
    const hostile = '<script>alert("x")</script> & ]]> \u0001\u202Eevil\u202C lone\uD800 😀';
    await distribute(
      plugin,
      { ...input, title: hostile, description: hostile, content: hostile, categories: [hostile] },
      configOf(),
      context,
    );
    const [item] = service.items;
    expect(service.requests[0].raw.isWellFormed()).toBe(true);
    expect(item.title).toBe('<script>alert("x")</script> & ]]> evil lone 😀');
    expect(item.description).toBe(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; evil lone 😀",
    );
    expect(item.content).toBe(`<p>${item.description}</p>`);
    expect(item.category).toEqual([{ name: '<script>alert("x")</script> & ]]> evil lone 😀' }]);
  });

  it("sends an over-long item cut to this server's item limits", async () => {
    await distribute(
      plugin,
      { ...input, title: "☀️".repeat(2000), content: "Solar ☀️ ".repeat(40_000) },
      configOf(),
      context,
    );
    const [item] = service.items;
    expect(item.title.length).toBeLessThanOrEqual(500);
    expect(item.content.length).toBeLessThan(120_000);
    expect(item.content.startsWith("<p>Solar ☀️ Solar")).toBe(true);
  });

  it("says to fix the secret when the service refuses it", async () => {
    const error = await failure(distribute(plugin, input, configOf({}, "wrong"), context));
    expect(error).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(error.message).toBe(
      "The RSS service refused the secret (401: Unauthorized: Invalid API secret: The provided API secret is invalid): set the feed secret behind apiSecret to the service's API secret.",
    );
  });

  it("asks for a secret before sending anything", async () => {
    const error = await failure(distribute(plugin, input, configOf({ apiSecret: undefined }), context));
    expect(error).toMatchObject({ code: "RSS_SECRET_MISSING", retryable: false });
    expect(error.message).toMatch(/set apiSecret to a \{\{NAME\}\} placeholder/);
    expect(service.requests).toHaveLength(0);
  });

  it("asks for a link before sending an item the service would refuse", async () => {
    const error = await failure(distribute(plugin, { ...input, link: undefined }, configOf(), context));
    expect(error).toMatchObject({ code: "RSS_ITEM_INCOMPLETE", retryable: false });
    expect(error.message).toMatch(/map link \(or url\)/);
    expect(service.requests).toHaveLength(0);
  });

  it("passes on what the service says when it refuses the item", async () => {
    service.answerNext({
      status: 400,
      body: { error: "Missing required field: content", message: "Required" },
    });
    const error = await failure(distribute(plugin, input, configOf(), context));
    expect(error).toMatchObject({ code: "RSS_ITEM_REJECTED", retryable: false });
    expect(error.message).toBe(
      "The RSS service refused the item (400: Missing required field: content: Required): check what the feed's transforms map.",
    );
  });

  it("says to check serviceUrl when there is no item API there", async () => {
    const error = await failure(
      distribute(plugin, input, configOf({ serviceUrl: `${service.url}/nothing` }), context),
    );
    expect(error).toMatchObject({ code: "RSS_SERVICE_NOT_FOUND", retryable: false });
    expect(error.message).toBe(
      `The RSS service has no item API at ${service.url}/nothing/api/items (404): set serviceUrl to the service's root address.`,
    );
  });

  it("does not follow a redirect", async () => {
    service.answerNext({ status: 301, headers: { location: "https://evil.example/api/items" } });
    const error = await failure(distribute(plugin, input, configOf(), context));
    expect(error).toMatchObject({ code: "RSS_SERVICE_REDIRECTED", retryable: false });
    expect(error.message).toMatch(/to https:\/\/evil\.example\/api\/items\); redirects are not followed/);
    expect(service.requests).toHaveLength(1);
  });

  it("is retryable when the service is down or rate limits, honouring Retry-After", async () => {
    service.answerNext({ status: 503, body: { error: "Service Unavailable" } });
    const down = await failure(distribute(plugin, input, configOf(), context));
    expect(down).toMatchObject({ code: "RSS_SERVICE_UNAVAILABLE", retryable: true });
    expect(down.message).toBe("The RSS service answered 503 (/api/items).");
    service.answerNext({
      status: 429,
      headers: { "retry-after": "7" },
      body: { error: "Too Many Requests" },
    });
    const limited = await failure(distribute(plugin, input, configOf(), context));
    expect(limited).toMatchObject({ code: "RSS_SERVICE_UNAVAILABLE", retryable: true, retryAfterMs: 7000 });
  });

  it("refuses a service on a private address the operator has not allowed", async () => {
    const strict = createRssDistributor({
      db: null as unknown as Database,
      publicUrl: PUBLIC_URL,
      allowedHosts: [],
    });
    const config = stepConfig(
      strict,
      { serviceUrl: service.url, apiSecret: "{{RSS_API_SECRET}}" },
      { feed: { RSS_API_SECRET: SECRET } },
    );
    const error = await failure(distribute(strict, input, config, context));
    expect(error).toMatchObject({ code: "RSS_URL_REFUSED", retryable: false });
    expect(error.message).toMatch(/PRIVATE_HOSTS_ALLOWED/);
    expect(service.requests).toHaveLength(0);
  });

  it("is throttled per service host, and this deployment's own service not at all", () => {
    expect(plugin.throttle?.(configOf())).toEqual([
      { key: `rss-service:${new URL(service.url).host}`, intervalMs: 100 },
    ]);
    expect(plugin.throttle?.(stepConfig(plugin, {}))).toEqual([]);
    expect(plugin.throttle?.(stepConfig(plugin, { serviceUrl: `${PUBLIC_URL}/rss/` }))).toEqual([]);
  });
});

describe("RSS distributor, this deployment's service", () => {
  it("is the default, with or without serviceUrl naming it", async () => {
    for (const config of [{}, { serviceUrl: `${PUBLIC_URL}/rss` }, { serviceUrl: `${PUBLIC_URL}/rss/` }]) {
      const rendered = await plugin.render(input, stepConfig(plugin, config), context);
      expect(rendered.action).toBe("addItem");
      expect(rendered.request).toMatchObject({ guid: "https://x.com/amy/status/1", curator: "bob" });
    }
    expect(service.requests).toHaveLength(0);
  });
});
