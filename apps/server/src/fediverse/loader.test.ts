import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  guardedAuthenticatedLoaderFactory,
  guardedDocumentLoader,
  REMOTE_DOCUMENT_MAX_BYTES,
} from "./loader.ts";

/** Fedify's loaders are ours: every fetch through the outbound guard, bounded, contexts answered locally. */
let server: Server;
let origin: string;
const logger = pino({ level: "silent" });

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/huge") {
      response.writeHead(200, { "content-type": "application/activity+json" });
      response.end(`{"a":"${"x".repeat(REMOTE_DOCUMENT_MAX_BYTES)}"}`);
      return;
    }
    response.writeHead(200, { "content-type": "application/activity+json" });
    response.end(
      JSON.stringify({
        id: `${origin}${request.url}`,
        type: "Person",
        signed: Boolean(request.headers.signature),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the fediverse document loaders", () => {
  it("refuses a non-public address unless it is allowed (the development loopback allowance)", async () => {
    await expect(guardedDocumentLoader({ allowedHosts: [], logger })(`${origin}/users/a`)).rejects.toThrow(
      /127\.0\.0\.1/,
    );
    const allowed = await guardedDocumentLoader({ allowedHosts: ["127.0.0.1"], logger })(`${origin}/users/a`);
    expect(allowed.document).toMatchObject({ type: "Person", signed: false });
  });

  it("answers the ActivityStreams context without a request and refuses an oversized document", async () => {
    const loader = guardedDocumentLoader({ allowedHosts: [], logger });
    const context = await loader("https://www.w3.org/ns/activitystreams");
    expect(context.document).toHaveProperty("@context");
    await expect(
      guardedDocumentLoader({ allowedHosts: ["127.0.0.1"], logger })(`${origin}/huge`),
    ).rejects.toThrow(/larger than/);
  });

  it("signs the fetches of servers that answer only signed requests, through the same guard", async () => {
    const { generateCryptoKeyPair } = await import("@fedify/fedify");
    const pair = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const identity = {
      keyId: new URL("https://curate.example/ap/feeds/news#main-key"),
      privateKey: pair.privateKey,
    };
    const signed = await guardedAuthenticatedLoaderFactory({ allowedHosts: ["127.0.0.1"], logger })(identity)(
      `${origin}/users/b`,
    );
    expect(signed.document).toMatchObject({ signed: true });
    await expect(
      guardedAuthenticatedLoaderFactory({ allowedHosts: [], logger })(identity)(`${origin}/users/b`),
    ).rejects.toThrow(/127\.0\.0\.1/);
  });
});
