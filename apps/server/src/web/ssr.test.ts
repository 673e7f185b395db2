import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { escapeHtml } from "@curate/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { signIn } from "../../test/session.ts";
import { headTags, jsonForHtml } from "./ssr.ts";

// The web app's real server entry, from source (vitest compiles it as Vite would); the shell is a minimal build.
const ENTRY = resolve(import.meta.dirname, "../../../web/src/entry-server.tsx");
const HOSTILE_NAME = `</title><script>alert("pwned")</script><b x='y'>&amp;`;
const HOSTILE_DESCRIPTION = `"><img src=x onerror=alert(1)> </script><!-- & more`;
const STATE_BLOCK = /<script nonce="[^"]+" type="application\/json" id="curate-ssr-state">([^<]*)<\/script>/;

const webDist = mkdtempSync(join(tmpdir(), "curate-ssr-dist-"));
let server: TestServer;

function stateOf(html: string) {
  const block = STATE_BLOCK.exec(html);
  if (!block) throw new Error("no state block");
  return JSON.parse(block[1]) as {
    renderedAt: number;
    queries: { queries: Array<{ queryKey: unknown[]; state: { data: unknown; status: string } }> };
  };
}

const keysOf = (html: string) => stateOf(html).queries.queries.map((query) => query.queryKey);
const rootOf = (html: string) => /<div id="root">([\s\S]*?)<\/div>\s*<script nonce/.exec(html)?.[1] ?? "";

async function page(path: string, init?: RequestInit) {
  const response = await server.request(path, { redirect: "manual", ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

beforeAll(async () => {
  mkdirSync(join(webDist, "assets"));
  writeFileSync(
    join(webDist, "index.html"),
    [
      "<!doctype html>",
      '<html lang="en"><head>',
      '<meta name="description" content="Curate: the shell description." />',
      "<title>Curate</title>",
      '<script type="module" crossorigin src="/assets/index-test.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/index-test.css">',
      '</head><body><div id="root"></div></body></html>',
    ].join("\n"),
  );
  writeFileSync(join(webDist, "assets", "index-test.js"), "console.log('app')");
  writeFileSync(join(webDist, "assets", "index-test.css"), "body{color:rgb(1,2,3)}");
  server = await startTestServer({ WEB_DIST_DIR: webDist, WEB_SSR_ENTRY: ENTRY, SSR_TIMEOUT_MS: "5000" });
  await insertFeed(server.db, {
    id: "solar",
    name: "Solar Weekly",
    description: "Panels, storage and the grid.",
    image: "https://images.example/solar.png",
  });
  await insertFeed(server.db, { id: "hostile", name: HOSTILE_NAME, description: HOSTILE_DESCRIPTION });
  await insertSubmission(server.db, {
    content: "Perovskite cells pass 30 percent efficiency",
    curatorUsername: "sunny",
    feeds: [{ feedId: "solar", status: "approved" }],
  });
  await insertSubmission(server.db, {
    content: "A pending post about inverters",
    curatorUsername: "volt",
    feeds: [{ feedId: "solar", status: "pending" }],
  });
});

afterAll(async () => {
  await server.close();
});

describe("server-rendered public pages", () => {
  it("/ is rendered with its feeds and submissions, its data embedded, the stylesheet inline and a nonce", async () => {
    const { status, headers, html } = await page("/");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toContain("text/html");
    expect(headers.get("cache-control")).toBe("no-store");
    const nonce = /'nonce-([^']+)'/.exec(headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    // The app's code is added by a nonce-carrying loader once the page is painted, not from the head.
    expect(html).not.toContain('<script type="module"');
    // Compared as text: a base64 nonce may hold "+" or "/".
    expect(html).toContain(`<script nonce="${nonce}">(function(){var s=["/assets/index-test.js"]`);

    // Painted whole: the head holds the first paint until the element after the page (its state) is parsed, so
    // a busy machine or a slow connection never paints a page cut off mid-parse that then moves.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain('<link rel="expect" href="#curate-ssr-state" blocking="render" />');
    expect(html.indexOf('id="curate-ssr-state"')).toBeGreaterThan(html.indexOf(rootOf(html)));

    const root = rootOf(html);
    expect(root).toContain("Solar Weekly");
    expect(root).toContain("Perovskite cells pass 30 percent efficiency");
    expect(html).toContain("<style>body{color:rgb(1,2,3)}</style>");
    expect(html).not.toContain('rel="stylesheet"');
    expect(html.match(/<title>/g)?.length).toBeGreaterThanOrEqual(1);
    expect(html).toContain("<title>Explore · Curate</title>");
    expect(html).not.toContain("the shell description");

    const keys = keysOf(html);
    expect(keys).toContainEqual(["feeds", "list"]);
    expect(keys).toContainEqual(["config"]);
    expect(keys.some((key) => key[0] === "submissions")).toBe(true);
    // The visitor's session is never part of a rendered page.
    expect(keys.some((key) => key[0] === "auth")).toBe(false);
    const submissions = stateOf(html).queries.queries.find((query) => query.queryKey[0] === "submissions");
    expect(JSON.stringify(submissions?.state.data)).toContain("Perovskite");
  });

  it("/leaderboard is rendered with the curators and its data embedded", async () => {
    const { status, html } = await page("/leaderboard");
    expect(status).toBe(200);
    expect(html).toContain("<title>Leaderboard · Curate</title>");
    expect(rootOf(html)).toContain("sunny");
    expect(keysOf(html).some((key) => key[0] === "leaderboard")).toBe(true);
  });

  it("a feed page is rendered with the feed, its submissions and link-preview tags", async () => {
    const { status, html } = await page("/feed/solar/curation");
    expect(status).toBe(200);
    // Painted whole: the head holds the first paint until the element after the page (its state) is parsed, so
    // a busy machine or a slow connection never paints a page cut off mid-parse that then moves.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain('<link rel="expect" href="#curate-ssr-state" blocking="render" />');
    expect(html.indexOf('id="curate-ssr-state"')).toBeGreaterThan(html.indexOf(rootOf(html)));

    const root = rootOf(html);
    expect(root).toContain("Solar Weekly");
    expect(root).toContain("Perovskite cells pass 30 percent efficiency");
    expect(html).toContain("<title>Solar Weekly · Curate</title>");
    expect(html).toContain('<meta name="description" content="Panels, storage and the grid." />');
    expect(html).toContain('<meta property="og:title" content="Solar Weekly · Curate" />');
    expect(html).toContain('<meta property="og:description" content="Panels, storage and the grid." />');
    expect(html).toContain('<meta property="og:image" content="https://images.example/solar.png" />');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toContain(
      `<meta property="og:url" content="${server.env.PUBLIC_URL}/feed/solar/curation" />`,
    );
    expect(keysOf(html)).toContainEqual(["feeds", "detail", "solar"]);
  });

  it("a bare feed address redirects to its curation tab", async () => {
    const { status, headers } = await page("/feed/solar");
    expect(status).toBe(302);
    expect(headers.get("location")).toBe("/feed/solar/curation");
  });

  it("a hostile feed name and description are escaped in the head, the body and the embedded state", async () => {
    const { status, html } = await page("/feed/hostile/curation");
    expect(status).toBe(200);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("</script><!--");
    expect(html).toContain(`<title>${escapeHtml(`${HOSTILE_NAME} · Curate`)}</title>`);
    expect(html).toContain(
      `<meta property="og:title" content="${escapeHtml(`${HOSTILE_NAME} · Curate`)}" />`,
    );
    expect(html).toContain(`<meta name="description" content="${escapeHtml(HOSTILE_DESCRIPTION.trim())}" />`);
    // Exactly the document's own script elements: the state block cannot be ended early.
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const feed = stateOf(html).queries.queries.find((query) => query.queryKey[1] === "detail");
    expect(feed?.state.data).toMatchObject({ name: HOSTILE_NAME, description: HOSTILE_DESCRIPTION });
  });

  it("a signed-in visitor gets the same anonymous page: no session, account or moderation data", async () => {
    const { cookie, accountId } = await signIn(server);
    const { status, html } = await page("/feed/solar/curation", { headers: { Cookie: cookie } });
    expect(status).toBe(200);
    expect(html).not.toContain(accountId);
    const keys = keysOf(html);
    expect(keys.some((key) => key[0] === "auth" || key[0] === "moderation")).toBe(false);
    expect(keys).toContainEqual(["feeds", "detail", "solar"]);
  });

  it("private pages and unknown addresses get the plain app shell", async () => {
    for (const path of ["/profile", "/feed/solar/settings", "/edit/feed/solar", "/nowhere"]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain("curate-ssr-state");
      expect(html, path).toContain("<title>Curate</title>");
    }
  });
});

describe("a feed that does not exist", () => {
  it("is a 404 on every page about it, public or not, which the browser renders at once", async () => {
    for (const path of [
      "/feed/nope/curation",
      "/feed/nope/content",
      "/feed/nope/processing",
      "/feed/nope/settings/connected",
      "/edit/feed/nope",
      "/feed/all/curation",
      "/edit/feed/ALL",
    ]) {
      const { status, headers, html } = await page(path);
      expect(status, path).toBe(404);
      expect(headers.get("content-type"), path).toContain("text/html");
      expect(headers.get("content-security-policy"), path).toMatch(/script-src 'self' 'nonce-/);
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain("curate-ssr-state");
      expect(html, path).toContain("<title>Feed not found · Curate</title>");
      expect(html, path).toContain('<meta name="robots" content="noindex" />');
      expect(html, path).not.toContain("<title>Curate</title>");
      expect(html, path).toMatch(/<script nonce="[^"]+" type="module"/);
    }
  });
});

describe("the rendered-page cache", () => {
  it("serves a page rendered within the read cache's TTL, with a fresh nonce, until something changes", async () => {
    const cached = await startTestServer({
      WEB_DIST_DIR: webDist,
      WEB_SSR_ENTRY: ENTRY,
      SSR_TIMEOUT_MS: "5000",
      READ_CACHE_TTL_MS: "60000",
    });
    try {
      const get = async () => {
        const response = await cached.request("/leaderboard");
        const html = await response.text();
        return { renderedAt: stateOf(html).renderedAt, nonce: /<script nonce="([^"]+)"/.exec(html)?.[1] };
      };
      const first = await get();
      const second = await get();
      expect(second.renderedAt).toBe(first.renderedAt);
      expect(second.nonce).not.toBe(first.nonce);
      // Any successful write through the API (here: signing in) clears it.
      await signIn(cached);
      const third = await get();
      expect(third.renderedAt).toBeGreaterThan(first.renderedAt);
    } finally {
      await cached.close();
    }
  });
});

describe("when the data is slow or the database is gone", () => {
  it("sends the app shell once the render's time is up", async () => {
    const slow = await startTestServer({ WEB_DIST_DIR: webDist, WEB_SSR_ENTRY: ENTRY, SSR_TIMEOUT_MS: "0" });
    try {
      const response = await slow.request("/");
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain("curate-ssr-state");
    } finally {
      await slow.close();
    }
  });

  it("sends the app shell when the API fails", async () => {
    const broken = await startTestServer({ WEB_DIST_DIR: webDist, WEB_SSR_ENTRY: ENTRY });
    try {
      await broken.database.close();
      for (const path of ["/", "/leaderboard", "/feed/solar/curation"]) {
        const response = await broken.request(path);
        expect(response.status, path).toBe(200);
        const html = await response.text();
        expect(html, path).toContain('<div id="root"></div>');
        expect(html, path).not.toContain("curate-ssr-state");
      }
    } finally {
      await broken.close();
    }
  });
});

describe("escaping helpers", () => {
  it("jsonForHtml keeps the value and never closes a script element", () => {
    const value = { name: "</script><script>x</script>", amp: "a&b", line: "a\u2028b" };
    const json = jsonForHtml(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it("headTags clips long texts, drops non-http images and makes root-relative images absolute", () => {
    const long = headTags(
      { title: "t".repeat(500), description: "d ".repeat(500), image: "javascript:alert(1)" },
      "/feed/x",
      "https://curate.example",
    );
    expect(long).not.toContain("og:image");
    expect(/<title>(t+…)<\/title>/.exec(long)?.[1].length).toBe(120);
    const relative = headTags(
      { title: "x", description: "y", image: "/uploads/a.png" },
      "/",
      "https://c.example",
    );
    expect(relative).toContain('<meta property="og:image" content="https://c.example/uploads/a.png" />');
  });
});
