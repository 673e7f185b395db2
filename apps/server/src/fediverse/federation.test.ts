import { Accept, Create, Delete, Undo, Update } from "@fedify/vocab";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { createFediverseReader, type FediverseReader } from "../../test/fakes/fediverse-reader.ts";
import {
  eventually,
  freePort,
  freshDatabase,
  readJson,
  startTestServer,
  type TestServer,
} from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { type ServedApp, serveApp } from "../../test/serve-app.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import {
  fediverseDeliveries,
  fediverseFollowers,
  fediverseNotes,
  processingJobs,
  processingSteps,
} from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { VERSION } from "../version.ts";
import { DrizzleKvStore } from "./kv.ts";
import { FEDIVERSE_INBOX_QUEUE } from "./queue.ts";

/**
 * Two Curate instances on loopback federate (issue 35): instance A's feed is an ActivityPub actor; instance B (its
 * own database and port) carries a minimal fediverse reader made with Fedify in front of its app, whose keys and
 * caches live in B's database through the project's KvStore. Every activity B receives passed Fedify's signature
 * check on B (fetching A's key through B's guarded loader); every activity A receives passed A's, in the request,
 * and was then handled by A's worker from Fedify's inbox queue (pg-boss).
 */
// Delivery passes run when the test asks (runFediverseDeliveryNow), never on the worker's own schedule.
const LOOPBACK = { FEDIVERSE_ALLOW_LOOPBACK: "true", FEDIVERSE_TICK_MS: "3600000" };
let a: TestServer;
let b: ServedApp;
let disposeB: () => Promise<void>;
let reader: FediverseReader;
const ownerKey = newKey();
let owner: string;

const deliver = async () => {
  const pass = (await a.worker?.runFediverseDeliveryNow()) as { sent: number; failed: number };
  if (process.env.DEBUG_FEDIVERSE) console.log(pass, await a.db.select().from(fediverseDeliveries));
  return pass;
};

async function approve(feedId: string, content: string) {
  const { tweetId } = await insertSubmission(a.db, { content, feeds: [{ feedId }] });
  const { status, body } = await a.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(a, owner),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  expect(status).toBe(200);
  const jobId = body.data.processingJobId as string;
  let ended = "";
  await eventually(async () => {
    const [job] = await a.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    ended = job?.status ?? "";
    return ["completed", "completed_with_errors", "failed"].includes(ended);
  }, "the publication job");
  if (ended !== "completed") {
    const steps = await a.db.select().from(processingSteps).where(eq(processingSteps.jobId, jobId));
    throw new Error(
      `the job ended ${ended}: ${JSON.stringify(steps.map((s) => [s.pluginName, s.status, s.error]))}`,
    );
  }
  return { tweetId, jobId };
}

const actorUrl = () => `${a.baseUrl}/ap/feeds/news`;

/** The states of the inbound activities A's inbox queued for its worker (pg-boss jobs), oldest first. */
async function inboxStates(): Promise<string[]> {
  const rows = await queryRows<{ state: string }>(
    a.db,
    sql`select state::text as state from pgboss.job where name = ${FEDIVERSE_INBOX_QUEUE} order by created_on, id`,
  );
  return rows.map((row) => row.state);
}

/** Waits until A's worker has handled every activity A's inbox accepted (each answered 202 once queued). */
const inboxHandled = () =>
  expect
    .poll(async () => (await inboxStates()).filter((state) => ["created", "retry", "active"].includes(state)))
    .toEqual([]);

beforeAll(async () => {
  if (process.env.DEBUG_FEDIVERSE) {
    const { configure, getConsoleSink } = await import("@logtape/logtape");
    await configure({
      sinks: { console: getConsoleSink() },
      loggers: [
        { category: "fedify", lowestLevel: "debug", sinks: ["console"] },
        { category: ["logtape", "meta"], lowestLevel: "error", sinks: ["console"] },
      ],
    });
  }
  const portA = await freePort();
  a = await startTestServer(
    { ...LOOPBACK, PORT: String(portA), PUBLIC_URL: `http://127.0.0.1:${portA}` },
    { worker: {} },
  );
  owner = (await signIn(a, ownerKey)).cookie;
  const portB = await freePort();
  const scratch = await freshDatabase();
  disposeB = scratch.dispose;
  reader = createFediverseReader(new DrizzleKvStore(scratch.handle.db));
  b = await serveApp(
    scratch.handle,
    { NODE_ENV: "test", ...LOOPBACK, PORT: String(portB), PUBLIC_URL: `http://127.0.0.1:${portB}` },
    {
      fetch: (app) => (request) =>
        new URL(request.url).pathname.startsWith("/reader/")
          ? reader.federation.fetch(request, { contextData: undefined })
          : app.fetch(request),
    },
  );
  await insertFeed(a.db, {
    id: "news",
    name: "Solar News",
    description: "The week in solar power",
    createdBy: ownerKey.implicitAccountId,
    config: {
      id: "news",
      name: "Solar News",
      description: "The week in solar power",
      outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/activitypub", config: {} }] } },
    },
  });
}, 120_000);

afterAll(async () => {
  await b?.close();
  await disposeB?.();
  await a?.close();
});

describe("a feed followed from another instance", () => {
  it("opts in, answers WebFinger and its actor in their own formats, and is followed (Follow → Accept)", async () => {
    const host = new URL(a.baseUrl).host;
    // Off until its owner turns it on: no actor, no WebFinger.
    expect(
      (await a.request("/ap/feeds/news", { headers: { Accept: "application/activity+json" } })).status,
    ).toBe(404);
    const on = await a.json("/api/feeds/news/fediverse", {
      method: "PUT",
      headers: sessionHeaders(a, owner),
      body: JSON.stringify({ enabled: true }),
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ enabled: true, handle: `@news@${host}`, followers: 0 });

    const finger = await a.request(`/.well-known/webfinger?resource=acct:news@${host}`);
    expect(finger.status).toBe(200);
    expect(finger.headers.get("content-type")).toContain("application/jrd+json");
    const jrd = await readJson(finger);
    expect(jrd).not.toHaveProperty("success");
    expect(jrd.subject).toBe(`acct:news@${host}`);
    expect(jrd.links).toContainEqual(
      expect.objectContaining({ rel: "self", href: `${a.baseUrl}/ap/feeds/news` }),
    );

    const actor = await a.request("/ap/feeds/news", { headers: { Accept: "application/activity+json" } });
    expect(actor.status).toBe(200);
    const document = await readJson(actor);
    expect(document).toMatchObject({
      type: "Service",
      preferredUsername: "news",
      name: "Solar News",
      inbox: `${a.baseUrl}/ap/feeds/news/inbox`,
      outbox: `${a.baseUrl}/ap/feeds/news/outbox`,
      followers: `${a.baseUrl}/ap/feeds/news/followers`,
    });
    expect(document.publicKey.publicKeyPem).toContain("BEGIN PUBLIC KEY");

    await reader.follow(b.baseUrl, "alice", actorUrl());
    await inboxHandled();
    // It went through the queue: answered 202 in the request, handled by A's worker.
    expect(await inboxStates()).toEqual(["completed"]);
    const [row] = await a.db.select().from(fediverseFollowers).where(eq(fediverseFollowers.feedId, "news"));
    expect(row).toMatchObject({
      actorUri: `${b.baseUrl}/reader/alice`,
      inbox: `${b.baseUrl}/reader/alice/inbox`,
    });
    expect((await deliver()).sent).toBe(1);
    expect(reader.received.at(-1)).toBeInstanceOf(Accept);
    const status = await a.json("/api/feeds/news/fediverse", { headers: sessionHeaders(a, owner) });
    expect(status.body.data.followers).toBe(1);
  });

  it("refuses unsigned and oversized activities", async () => {
    const unsigned = await a.request("/ap/feeds/news/inbox", {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body: JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        type: "Follow",
        id: `${b.baseUrl}/reader/mallory#f`,
        actor: `${b.baseUrl}/reader/mallory`,
        object: `${a.baseUrl}/ap/feeds/news`,
      }),
    });
    expect(unsigned.status).toBe(401);
    const huge = await a.request("/ap/inbox", {
      method: "POST",
      headers: { "Content-Type": "application/activity+json" },
      body: "x".repeat(300 * 1024),
    });
    expect(huge.status).toBe(413);
    const followers = await a.db
      .select()
      .from(fediverseFollowers)
      .where(eq(fediverseFollowers.feedId, "news"));
    expect(followers.map((f) => f.actorUri)).toEqual([`${b.baseUrl}/reader/alice`]);
  });

  it("ends a follow on Undo from the follower only", async () => {
    const bobFollow = await reader.follow(b.baseUrl, "bob", actorUrl());
    await inboxHandled();
    expect(
      await a.db.select().from(fediverseFollowers).where(eq(fediverseFollowers.feedId, "news")),
    ).toHaveLength(2);
    await reader.send(
      b.baseUrl,
      "bob",
      actorUrl(),
      (actor) => new Undo({ id: new URL(`${actor.href}#undo`), actor, object: bobFollow }),
    );
    await inboxHandled();
    const left = await a.db.select().from(fediverseFollowers).where(eq(fediverseFollowers.feedId, "news"));
    expect(left.map((f) => f.actorUri)).toEqual([`${b.baseUrl}/reader/alice`]);
    await deliver(); // bob's Accept
  });

  it("publishes Create, edits with Update, retracts with Delete — each signed and verified on B", async () => {
    reader.received.length = 0;
    const { tweetId, jobId } = await approve(
      "news",
      "Rooftop solar doubled this year https://example.org/solar",
    );
    expect((await deliver()).sent).toBe(1);
    const create = reader.received.at(-1);
    expect(create).toBeInstanceOf(Create);
    const note = await (create as Create).getObject();
    expect(String(note?.content)).toContain("Rooftop solar doubled this year");
    expect(note?.id?.href).toMatch(new RegExp(`^${a.baseUrl}/ap/notes/`));
    // The outbox lists it.
    const outbox = await a.request("/ap/feeds/news/outbox?cursor=0", {
      headers: { Accept: "application/activity+json" },
    });
    expect((await readJson(outbox)).orderedItems).toHaveLength(1);

    // Tweak and Reprocess of the fediverse step edits the live note: an Update of the same note.
    const [step] = await a.db
      .select()
      .from(processingSteps)
      .where(eq(processingSteps.jobId, jobId))
      .then((steps) => steps.filter((s) => s.pluginName === "@curate/activitypub"));
    const tweaked = await a.json(`/api/processing/steps/${step.id}/tweak`, {
      method: "POST",
      headers: sessionHeaders(a, owner),
      body: JSON.stringify({
        newInput: JSON.stringify({ ...(step.input as object), content: "Rooftop solar tripled (corrected)" }),
      }),
    });
    expect(tweaked.status).toBe(201);
    await eventually(async () => {
      const rows = await a.db
        .select()
        .from(fediverseDeliveries)
        .where(eq(fediverseDeliveries.feedId, "news"));
      return rows.some((r) => r.activityId.includes("#update-"));
    }, "the Update queued");
    expect((await deliver()).sent).toBe(1);
    const update = reader.received.at(-1);
    expect(update).toBeInstanceOf(Update);
    const edited = await (update as Update).getObject();
    expect(edited?.id?.href).toBe(note?.id?.href);
    expect(String(edited?.content)).toContain("tripled (corrected)");

    // The re-run queues its Update before it records its step: a retraction while it runs would be a 409.
    await expect
      .poll(async () =>
        (await a.db.select().from(processingJobs).where(eq(processingJobs.submissionId, tweetId)))
          .filter((job) => job.status === "pending" || job.status === "processing")
          .map((job) => job.id),
      )
      .toEqual([]);
    const retract = await a.json("/api/moderate/retract", {
      method: "POST",
      headers: sessionHeaders(a, owner),
      body: JSON.stringify({ submissionId: tweetId, feedId: "news" }),
    });
    expect(retract.status).toBe(200);
    await eventually(async () => {
      const rows = await a.db
        .select()
        .from(fediverseDeliveries)
        .where(eq(fediverseDeliveries.feedId, "news"));
      return rows.some((r) => r.activityId.endsWith("#delete"));
    }, "the Delete queued");
    expect((await deliver()).sent).toBe(1);
    const deletion = reader.received.at(-1);
    expect(deletion).toBeInstanceOf(Delete);
    expect((deletion as Delete).objectId?.href).toBe(note?.id?.href);
    expect(
      (
        await a.request(new URL(note?.id ?? "").pathname, {
          headers: { Accept: "application/activity+json" },
        })
      ).status,
    ).toBe(404);
  });

  it("describes itself in NodeInfo 2.1: the software, its protocol, the feeds followable and their notes", async () => {
    const index = await a.request("/.well-known/nodeinfo");
    expect(index.status).toBe(200);
    const links = (await readJson(index)).links as Array<{ rel: string; href: string }>;
    expect(links).toEqual([
      expect.objectContaining({
        rel: "http://nodeinfo.diaspora.software/ns/schema/2.1",
        href: `${a.baseUrl}/ap/nodeinfo/2.1`,
      }),
    ]);
    // A second note, live, beside the retracted one: only notes still published count.
    await a.db.insert(fediverseNotes).values({ id: "nodeinfo-live", feedId: "news", content: "<p>Live</p>" });
    const document = await a.request("/ap/nodeinfo/2.1");
    expect(document.status).toBe(200);
    expect(document.headers.get("content-type")).toContain("nodeinfo.diaspora.software/ns/schema/2.1");
    const info = await readJson(document);
    expect(info).not.toHaveProperty("success");
    expect(info).toMatchObject({
      version: "2.1",
      software: { name: "curate", version: VERSION },
      protocols: ["activitypub"],
      openRegistrations: false,
      usage: { users: { total: 1 }, localPosts: 1 },
    });
    await a.db.delete(fediverseNotes).where(eq(fediverseNotes.id, "nodeinfo-live"));
  });

  it("a deleted feed sends Delete for its actor, which stays a 410 tombstone nobody inherits", async () => {
    reader.received.length = 0;
    const deleted = await a.request("/api/feeds/news", {
      method: "DELETE",
      headers: sessionHeaders(a, owner),
    });
    expect(deleted.status).toBe(200);
    expect((await deliver()).sent).toBe(1);
    const deletion = reader.received.at(-1);
    expect(deletion).toBeInstanceOf(Delete);
    expect((deletion as Delete).objectId?.href).toBe(`${a.baseUrl}/ap/feeds/news`);

    const actor = await a.request("/ap/feeds/news", { headers: { Accept: "application/activity+json" } });
    expect(actor.status).toBe(410);
    expect((await readJson(actor)).type).toBe("Tombstone");
    const host = new URL(a.baseUrl).host;
    expect((await a.request(`/.well-known/webfinger?resource=acct:news@${host}`)).status).toBe(410);

    // A new feed with the same id cannot become that actor again, and has no followers.
    await insertFeed(a.db, { id: "news", name: "New News", createdBy: ownerKey.implicitAccountId });
    const again = await a.json("/api/feeds/news/fediverse", {
      method: "PUT",
      headers: sessionHeaders(a, owner),
      body: JSON.stringify({ enabled: true }),
    });
    expect(again.status).toBe(409);
    expect(
      await a.db.select().from(fediverseFollowers).where(eq(fediverseFollowers.feedId, "news")),
    ).toHaveLength(0);
  });
});
