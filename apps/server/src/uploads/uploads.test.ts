import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { png } from "../../test/images.ts";
import { signIn } from "../../test/session.ts";

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  cookie = (await signIn(server)).cookie;
});

afterAll(() => server.close());

function upload(bytes: Uint8Array, name: string, type: string, withCookie = true) {
  const form = new FormData();
  form.set("file", new Blob([bytes], { type }), name);
  return server.json("/api/upload", {
    method: "POST",
    headers: withCookie ? { Cookie: cookie, Origin: server.baseUrl } : { Origin: server.baseUrl },
    body: form,
  });
}

describe("POST /api/upload", () => {
  it("stores a real PNG under the hash of its bytes and serves it", async () => {
    const image = png();
    const { status, body } = await upload(image, "avatar.jpeg", "image/jpeg");
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ mimeType: "image/png", size: image.length });
    // A path, not an address: a feed storing it shows its image at whatever address the app is opened.
    expect(body.data.url).toMatch(/^\/uploads\/[0-9a-f]{64}\.png$/);
    const name = body.data.url.split("/").pop();
    expect(Buffer.compare(readFileSync(join(server.env.DATA_DIR, "uploads", name)), image)).toBe(0);
    const served = await server.request(`/uploads/${name}`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), image)).toBe(0);
    const again = await upload(image, "copy.png", "image/png");
    expect(again.body.data.url).toBe(body.data.url);
  });

  it("refuses a text file renamed to .png", async () => {
    const { status, body } = await upload(
      new TextEncoder().encode("<script>alert(1)</script>"),
      "evil.png",
      "image/png",
    );
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/Only PNG, JPEG, GIF and WebP/);
  });

  it("refuses an oversize file", async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(png().subarray(0, 8));
    const { status, body } = await upload(big, "big.png", "image/png");
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/too large/);
  });

  it("refuses a request without a file, and anonymous uploads", async () => {
    const empty = await server.json("/api/upload", {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.baseUrl },
      body: new FormData(),
    });
    expect(empty.status).toBe(400);
    expect((await upload(png(), "a.png", "image/png", false)).status).toBe(401);
  });
});

describe("GET /api/upload/get-auth-key", () => {
  it("is a 404 when Pinata is not configured", async () => {
    const browser = { Cookie: cookie, "Sec-Fetch-Site": "same-origin" };
    expect((await server.json("/api/upload/get-auth-key", { headers: browser })).status).toBe(404);
  });

  it("returns a single-use key made with the server's own Pinata JWT", async () => {
    const calls: Array<{ auth?: string; body: string }> = [];
    const pinata = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        calls.push({ auth: req.headers.authorization, body });
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ JWT: "scoped.jwt.value", pinata_api_key: "k", pinata_api_secret: "s" }));
      });
    });
    await new Promise<void>((resolve) => pinata.listen(0, "127.0.0.1", resolve));
    const withPinata = await startTestServer({
      PINATA_JWT: "server-secret-jwt",
      PINATA_API_URL: `http://127.0.0.1:${(pinata.address() as AddressInfo).port}`,
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      PINATA_KEYS_PER_HOUR: "2",
    });
    try {
      const { cookie: c } = await signIn(withPinata);
      const browser = { Cookie: c, "Sec-Fetch-Site": "same-origin" };
      // Minting a key is an act, not a read: another site's page (or a script without a browser's word) is refused.
      const refused: Array<Record<string, string>> = [
        { Cookie: c },
        { Cookie: c, "Sec-Fetch-Site": "cross-site" },
        { Cookie: c, Origin: "https://evil.example" },
      ];
      for (const headers of refused) {
        expect((await withPinata.json("/api/upload/get-auth-key", { headers })).status).toBe(403);
      }
      expect((await withPinata.json("/api/upload/get-auth-key")).status).toBe(401);
      const { status, body } = await withPinata.json("/api/upload/get-auth-key", { headers: browser });
      expect(status).toBe(200);
      expect(body.data).toEqual({ JWT: "scoped.jwt.value" });
      expect(calls[0].auth).toBe("Bearer server-secret-jwt");
      expect(JSON.parse(calls[0].body)).toMatchObject({ maxUses: 1 });
      const config = await withPinata.json("/api/config");
      expect(config.body.data).toMatchObject({
        imageUpload: "pinata",
        pinata: { uploadUrl: expect.any(String) },
      });
      expect(JSON.stringify(config.body)).not.toContain("server-secret-jwt");
      expect((await withPinata.json("/api/upload/get-auth-key", { headers: browser })).status).toBe(200);
      const spent = await withPinata.json("/api/upload/get-auth-key", { headers: browser });
      expect(spent.status).toBe(429);
      expect(spent.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(calls).toHaveLength(2);
    } finally {
      await withPinata.close();
      await new Promise<void>((resolve) => pinata.close(() => resolve()));
    }
  });
});

describe("POST /api/upload/pinned", () => {
  it("checks the bytes of a file the browser pinned on Pinata before handing out its address", async () => {
    const CIDS = {
      text: `Qm${"T".repeat(44)}`,
      image: `Qm${"P".repeat(44)}`,
      huge: `Qm${"H".repeat(44)}`,
    };
    const pinned: Record<string, Uint8Array> = {
      // What a browser happily sends as "logo.png": the name and type are its word, the bytes are the truth.
      [CIDS.text]: new TextEncoder().encode("<html><script>alert(1)</script></html>"),
      [CIDS.image]: png(),
      [CIDS.huge]: (() => {
        const big = new Uint8Array(5 * 1024 * 1024 + 10);
        big.set(png().subarray(0, 16));
        return big;
      })(),
    };
    const unpinned: Array<{ cid: string; auth?: string }> = [];
    const pinata = createServer((req, res) => {
      const gateway = req.url?.match(/^\/ipfs\/(\w+)$/);
      if (req.method === "GET" && gateway && pinned[gateway[1]]) {
        res.writeHead(200, { "Content-Type": "image/png" }).end(Buffer.from(pinned[gateway[1]]));
        return;
      }
      const unpin = req.url?.match(/^\/pinning\/unpin\/(\w+)$/);
      if (req.method === "DELETE" && unpin) {
        unpinned.push({ cid: unpin[1], auth: req.headers.authorization });
        res.writeHead(200).end("OK");
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => pinata.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(pinata.address() as AddressInfo).port}`;
    const withPinata = await startTestServer({
      PINATA_JWT: "server-secret-jwt",
      PINATA_API_URL: base,
      PINATA_GATEWAY_URL: `${base}/ipfs`,
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    });
    try {
      const { cookie: c } = await signIn(withPinata);
      const accept = (cid: string, headers: Record<string, string> = { Cookie: c }) =>
        withPinata.json("/api/upload/pinned", {
          method: "POST",
          headers: { ...headers, Origin: withPinata.baseUrl, "Content-Type": "application/json" },
          body: JSON.stringify({ cid }),
        });

      const refused = await accept(CIDS.text);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe("Only PNG, JPEG, GIF and WebP images can be uploaded.");
      expect(unpinned).toEqual([{ cid: CIDS.text, auth: "Bearer server-secret-jwt" }]);

      const tooBig = await accept(CIDS.huge);
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.error.message).toBe("The file is too large (at most 5 MB).");
      expect(unpinned.map((u) => u.cid)).toEqual([CIDS.text, CIDS.huge]);

      const image = await accept(CIDS.image);
      expect(image.status).toBe(200);
      expect(image.body.data).toEqual({
        url: `${base}/ipfs/${CIDS.image}`,
        mimeType: "image/png",
        size: png().length,
      });
      expect(unpinned).toHaveLength(2);

      expect((await accept("../../etc/passwd")).status).toBe(400);
      expect((await accept(CIDS.image, {})).status).toBe(401);
    } finally {
      await withPinata.close();
      await new Promise<void>((resolve) => pinata.close(() => resolve()));
    }
    // Without Pinata, there is nothing pinned to accept.
    const local = await server.json("/api/upload/pinned", {
      method: "POST",
      headers: { Cookie: cookie, Origin: server.baseUrl, "Content-Type": "application/json" },
      body: JSON.stringify({ cid: CIDS.image }),
    });
    expect(local.status).toBe(404);
  });
});

describe("an uploaded image's path", () => {
  it("is what a feed stores, resolved against PUBLIC_URL for readers elsewhere (feed files, link previews)", async () => {
    const { body } = await upload(png(), "logo.png", "image/png");
    const path: string = body.data.url;
    await insertFeed(server.db, {
      id: "pictured",
      image: path,
      config: {
        image: path,
        outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss", config: {} }] } },
      },
    });
    const feed = await server.json("/api/feeds/pictured");
    expect(feed.body.data).toMatchObject({ image: path, config: { image: path } });
    const rss = await server.request("/rss/pictured/rss.xml");
    expect(rss.status).toBe(200);
    expect(await rss.text()).toContain(`<url>${server.env.PUBLIC_URL}${path}</url>`);
    const json = await server.json("/rss/pictured/feed.json");
    expect(json.body.icon).toBe(`${server.env.PUBLIC_URL}${path}`);
  });
});
