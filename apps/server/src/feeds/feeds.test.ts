import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "all", name: "All" });
  await insertFeed(server.db, {
    id: "zeta",
    name: "Zeta News",
    config: { outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss", config: {} }] } } },
  });
  await insertFeed(server.db, {
    id: "alpha",
    name: "Alpha",
    image: "https://example.com/alpha.png",
    admins: ["admin.near"],
    config: {
      id: "alpha",
      name: "Alpha",
      description: "A",
      sources: [{ plugin: "@curatedotfun/twitter" }],
      moderation: { approvers: { twitter: ["amy", "bob"], bluesky: ["carol"] } },
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            {
              plugin: "@curate/rss",
              config: { serviceUrl: "https://curate.example/rss", apiSecret: "{{S}}" },
            },
          ],
        },
      },
    },
  });
});

afterAll(() => server.close());

describe("GET /api/feeds", () => {
  it("lists every feed but the hidden `all` feed, by name, as summaries without configs", async () => {
    const { status, body } = await server.json("/api/feeds");
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.map((f: { id: string }) => f.id)).toEqual(["alpha", "zeta"]);
    expect(body.data[0]).toEqual({
      id: "alpha",
      name: "Alpha",
      description: "About Alpha",
      image: "https://example.com/alpha.png",
      createdBy: "creator.near",
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      complete: true,
      streamEnabled: true,
      approverCount: 3,
      destinations: [{ kind: "rss", label: "RSS", href: "https://curate.example/rss/alpha/rss.xml" }],
    });
    expect(body.data[1]).toMatchObject({ id: "zeta", complete: false, approverCount: 0 });
    // An RSS output without a serviceUrl publishes to this deployment's own RSS service.
    expect(body.data[1].destinations).toEqual([
      { kind: "rss", label: "RSS", href: `${server.env.PUBLIC_URL}/rss/zeta/rss.xml` },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/apiSecret|\{\{S\}\}|config/);
  });
});

describe("GET /api/feeds/{id}", () => {
  it("returns one feed, whatever the case of the id", async () => {
    const { status, body } = await server.json("/api/feeds/ZETA");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: "zeta", name: "Zeta News" });
  });

  it("is a 404 envelope when absent", async () => {
    const { status, body } = await server.json("/api/feeds/missing");
    expect(status).toBe(404);
    expect(body).toMatchObject({
      success: false,
      statusCode: 404,
      error: { code: "NOT_FOUND", message: 'Feed "missing" not found.' },
    });
  });
});
