import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Follow } from "@fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { fediverseDeliveries, fediverseFollowers, type User, users } from "../db/schema.ts";
import { queueActivity } from "./delivery.ts";
import { setFediverse } from "./service.ts";

/**
 * Deliveries through a local inbox that answers as told: signed POSTs, a retryable failure waits (backoff) and is
 * sent by a later pass, a refusal is given up at once.
 */
let server: TestServer;
let inbox: Server;
let inboxUrl: string;
let answer = 202;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  inbox = createServer((request, response) => {
    seen.push(request);
    request.resume();
    request.on("end", () => {
      response.writeHead(answer);
      response.end();
    });
  });
  await new Promise<void>((resolve) => inbox.listen(0, "127.0.0.1", () => resolve()));
  inboxUrl = `http://127.0.0.1:${(inbox.address() as AddressInfo).port}/inbox`;
  // Passes run when the test asks (runFediverseDeliveryNow), not on the worker's own schedule.
  server = await startTestServer(
    { FEDIVERSE_ALLOW_LOOPBACK: "true", FEDIVERSE_TICK_MS: "3600000" },
    { worker: {} },
  );
  const [owner] = await server.db.insert(users).values({ nearAccountId: "owner.near" }).returning();
  await insertFeed(server.db, { id: "relay", name: "Relay", createdBy: owner.nearAccountId });
  await setFediverse(server.db, server.env, owner as User, "relay", true);
  await server.db.insert(fediverseFollowers).values({
    feedId: "relay",
    actorUri: "http://127.0.0.1/users/r",
    inbox: inboxUrl,
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => inbox.close(() => resolve()));
});

const pass = () =>
  server.worker?.runFediverseDeliveryNow() as Promise<{ sent: number; retrying: number; failed: number }>;

async function queue(id: string) {
  const actor = new URL(`${server.env.PUBLIC_URL}/ap/feeds/relay`);
  const activity = new Follow({
    id: new URL(`${actor.href}#${id}`),
    actor,
    object: new URL("http://127.0.0.1/x"),
  });
  expect(await queueActivity(server.db, "relay", activity, [inboxUrl])).toBe(1);
  // The same activity to the same inbox is queued once.
  await queueActivity(server.db, "relay", activity, [inboxUrl]);
  const rows = await server.db
    .select()
    .from(fediverseDeliveries)
    .where(eq(fediverseDeliveries.activityId, activity.id?.href as string));
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

const row = async (id: string) =>
  (await server.db.select().from(fediverseDeliveries).where(eq(fediverseDeliveries.id, id)))[0];

describe("fediverse deliveries", () => {
  it("signs each POST; a 503 waits with backoff and a later pass sends it", async () => {
    const id = await queue("retry");
    answer = 503;
    expect(await pass()).toMatchObject({ sent: 0, retrying: 1 });
    const waiting = await row(id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, error: expect.stringContaining("503") });
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(seen.at(-1)?.headers.signature).toMatch(/keyId="[^"]+\/ap\/feeds\/relay#main-key"/);
    expect(seen.at(-1)?.headers.digest).toMatch(/^SHA-256=/);
    // Not due yet: the next pass leaves it alone.
    expect(await pass()).toMatchObject({ sent: 0, retrying: 0 });
    // Its wait is over (the clock moved on): it goes out.
    await server.db
      .update(fediverseDeliveries)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(fediverseDeliveries.id, id));
    answer = 202;
    expect(await pass()).toMatchObject({ sent: 1 });
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2, error: null });
  });

  it("gives a delivery up at once when the inbox refuses it (4xx)", async () => {
    const id = await queue("refused");
    answer = 403;
    expect(await pass()).toMatchObject({ failed: 1 });
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 1, error: "HTTP 403" });
    const status = await server.db
      .select()
      .from(fediverseDeliveries)
      .where(eq(fediverseDeliveries.status, "failed"));
    expect(status).toHaveLength(1);
  });
});

describe("without an https PUBLIC_URL", () => {
  it("has no fediverse: its addresses answer 404 and a feed cannot opt in (409)", async () => {
    const plain = await startTestServer();
    try {
      const [owner] = await plain.db.insert(users).values({ nearAccountId: "plain.near" }).returning();
      await insertFeed(plain.db, { id: "plain", name: "Plain", createdBy: owner.nearAccountId });
      const actor = await plain.request("/ap/feeds/plain", {
        headers: { Accept: "application/activity+json" },
      });
      expect(actor.status).toBe(404);
      expect((await plain.request("/.well-known/webfinger?resource=acct:plain@localhost")).status).toBe(404);
      await expect(setFediverse(plain.db, plain.env, owner as User, "plain", true)).rejects.toMatchObject({
        status: 409,
      });
    } finally {
      await plain.close();
    }
  });
});
