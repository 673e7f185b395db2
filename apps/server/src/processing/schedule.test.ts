import { type ChannelSchedule, planSendTimes } from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { processingJobs, scheduledSends } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { type ProcessingEngine, startProcessingEngine } from "./engine.ts";
import { runnerDeps } from "./runner-deps.ts";

/**
 * A publishing schedule per channel (decision 0036), end to end on a controlled clock: the worker's clock is set
 * and moved by the test, and nothing here waits for a duration. Two engines take jobs from one queue, as two
 * workers do; each slot is published once.
 */
const HOOK_SECRET = "whsec_schedule";
let now = Date.parse("2027-03-27T23:00:00Z"); // midnight in Berlin, the night the clocks go forward
const clock = () => new Date(now);
let server: TestServer;
let second: ProcessingEngine;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const ownerKey = newKey();
let owner: string;

const webhook = (schedule?: unknown) => ({
  plugin: "@curate/webhook",
  config: { url: receiver.url, secret: "{{HOOK_SECRET}}" },
  ...(schedule ? { schedule } : {}),
});
const feedConfig = (id: string, distribute: unknown[]) => ({
  id,
  name: id,
  description: `About ${id}`,
  outputs: { stream: { enabled: true, distribute } },
});
const DST_SLOTS: ChannelSchedule = {
  mode: "slots",
  slots: ["02:30", "03:00", "09:00"],
  timezone: "Europe/Berlin",
};

beforeAll(async () => {
  receiver = await startWebhookReceiver(HOOK_SECRET);
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    { worker: { clock } },
  );
  // A second worker on the same queue and database, with the same clock: the two compete for every job.
  const worker = server.worker;
  if (!worker) throw new Error("the test server has no worker");
  second = await startProcessingEngine(
    worker.boss,
    server.database,
    runnerDeps({
      database: server.database,
      env: server.env,
      logger: pino({ level: "silent" }),
      telemetry: server.telemetry,
      clock,
    }),
    { concurrency: 4, heartbeatSeconds: 10 },
    pino({ level: "silent" }),
  );
  owner = (await signIn(server, ownerKey)).cookie;
  await addFeed("dst", [webhook(DST_SLOTS)]);
  await addFeed("mixed", [
    { plugin: "@curate/rss" },
    webhook({ mode: "slots", slots: ["12:00"], timezone: "UTC" }),
  ]);
});

afterAll(async () => {
  await second?.stop();
  await server?.close();
  await receiver?.close();
});

/** A webhook's signing secret may only come from the feed's own secrets. */
async function addFeed(id: string, distribute: unknown[]) {
  await insertFeed(server.db, {
    id,
    createdBy: ownerKey.implicitAccountId,
    config: feedConfig(id, distribute),
  });
  const { status } = await server.json(`/api/feeds/${id}/secrets/HOOK_SECRET`, {
    method: "PUT",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ value: HOOK_SECRET }),
  });
  expect(status).toBe(200);
}

async function approve(feedId: string, content: string): Promise<string> {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  expect(status).toBe(200);
  return tweetId;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const delivered = (feedId: string) =>
  receiver.requests.filter((request) => request.body?.feedId === feedId).map((r) => r.body.submissionId);

async function parkedJobs(feedId: string) {
  const [row] = await queryRows<{ parked: number }>(
    server.db,
    sql`select count(*)::int as parked from processing_jobs
      where feed_id = ${feedId} and status = 'pending' and queued_at is null and parkings > 0`,
  );
  return row.parked;
}

async function line(feedId: string, channelKey: string) {
  const { status, body } = await server.json(
    `/api/processing/feeds/${feedId}/schedule/sends?channelKey=${encodeURIComponent(channelKey)}&limit=100`,
    { headers: sessionHeaders(server, owner) },
  );
  expect(status).toBe(200);
  return body.data as {
    items: Array<{
      id: string;
      submissionId: string;
      plannedAt: string;
      position: number;
      publishNow: boolean;
    }>;
    pagination: { totalCount: number };
  };
}

async function channelKeyOf(feedId: string): Promise<string> {
  const { body } = await server.json(`/api/processing/feeds/${feedId}/schedule`, {
    headers: sessionHeaders(server, owner),
  });
  return body.data.channels[0].channelKey;
}

/** Moves the worker's clock and lets whatever is due by it go. */
async function advanceTo(iso: string) {
  now = Date.parse(iso);
  await server.worker?.runScheduleNow();
}

describe("a channel with daily slots, two workers and a daylight-saving night", () => {
  it("plans each item into the next free slot and publishes each slot once, the gap's slot once", async () => {
    const items: string[] = [];
    for (let i = 0; i < 5; i++) items.push(await approve("dst", `Scheduled item ${i}`));
    await until(async () => (await parkedJobs("dst")) === 5, "five jobs waiting for their slots");
    const key = await channelKeyOf("dst");
    const planned = await line("dst", key);
    // 02:30 falls in the gap (02:00 → 03:00 CEST) and moves to 03:00, which is a slot too: one send, not two.
    const expected = planSendTimes(DST_SLOTS, { from: Date.parse("2027-03-27T23:00:00Z"), count: 5 }).map(
      (t) => new Date(t).toISOString(),
    );
    expect(expected).toEqual([
      "2027-03-28T01:00:00.000Z",
      "2027-03-28T07:00:00.000Z",
      "2027-03-29T00:30:00.000Z",
      "2027-03-29T01:00:00.000Z",
      "2027-03-29T07:00:00.000Z",
    ]);
    expect(planned.items.map((item) => item.plannedAt)).toEqual(expected);
    expect(planned.items.map((item) => item.position)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(planned.items.map((item) => item.submissionId))).toEqual(new Set(items));
    expect(delivered("dst")).toEqual([]);

    // Slot by slot: at each, the item planned for it goes, and only it.
    for (const [index, slot] of expected.entries()) {
      await advanceTo(slot);
      await until(() => delivered("dst").length === index + 1, `the send of slot ${slot}`);
      expect(delivered("dst")[index]).toBe(planned.items[index].submissionId);
    }
    await until(async () => (await line("dst", key)).pagination.totalCount === 0, "an empty line");

    const sendsOf = () =>
      server.db
        .select({ slotAt: scheduledSends.slotAt, status: scheduledSends.status })
        .from(scheduledSends)
        .where(eq(scheduledSends.feedId, "dst"));
    // The receiver may see the last request just before its step's success is committed.
    await until(async () => (await sendsOf()).every((send) => send.status === "sent"), "every send recorded");
    const sends = await sendsOf();
    expect(sends).toHaveLength(5);
    expect(sends.map((send) => send.slotAt?.toISOString()).sort()).toEqual(expected);
    // Every item once, whatever the two workers did.
    expect(delivered("dst").sort()).toEqual([...items].sort());
  });

  it("lets one of two items planned for the same slot take it, and plans the other for the next one", async () => {
    const a = await approve("dst", "Racing item A");
    const b = await approve("dst", "Racing item B");
    await until(async () => (await parkedJobs("dst")) === 2, "two parked jobs");
    const key = await channelKeyOf("dst");
    const [first] = (await line("dst", key)).items;
    // A planning race written by hand: both items claim the first slot.
    await server.db
      .update(scheduledSends)
      .set({ plannedAt: new Date(first.plannedAt) })
      .where(and(eq(scheduledSends.feedId, "dst"), eq(scheduledSends.status, "waiting")));
    await advanceTo(first.plannedAt);
    await until(() => delivered("dst").length === 6, "one of the two to go");
    // Until its own turn comes, the other is still in the line with the taken slot: wait for it to be planned anew.
    const replanned = async () => {
      const waiting = await line("dst", key);
      return waiting.pagination.totalCount === 1 && waiting.items[0].plannedAt !== first.plannedAt;
    };
    await until(replanned, "the other to wait again, for a later slot");
    const [other] = (await line("dst", key)).items;
    expect(Date.parse(other.plannedAt)).toBeGreaterThan(Date.parse(first.plannedAt));
    await advanceTo(other.plannedAt);
    await until(() => delivered("dst").length === 7, "the other at its own slot");
    expect(delivered("dst").slice(5).sort()).toEqual([a, b].sort());
    const [slots] = await queryRows<{ taken: number; distinct: number }>(
      server.db,
      sql`select count(*)::int as taken, count(distinct slot_at)::int as distinct
        from scheduled_sends where feed_id = 'dst'`,
    );
    expect(slots.taken).toBe(slots.distinct);
  });
});

describe("a feed with an immediate and a scheduled channel", () => {
  it("publishes the immediate channel at once while the scheduled one waits; undo and retraction take items off", async () => {
    now = Date.parse("2027-04-01T08:00:00Z");
    const kept = await approve("mixed", "Kept in line");
    const undone = await approve("mixed", "Undone while waiting");
    const retracted = await approve("mixed", "Retracted while waiting");
    await until(async () => (await parkedJobs("mixed")) === 3, "three parked jobs");
    const [rss] = await queryRows<{ items: number }>(
      server.db,
      sql`select count(*)::int as items from rss_items where feed_id = 'mixed'`,
    );
    expect(rss.items).toBe(3);
    const key = await channelKeyOf("mixed");
    const before = await line("mixed", key);
    expect(before.items.map((item) => item.plannedAt)).toEqual([
      "2027-04-01T12:00:00.000Z",
      "2027-04-02T12:00:00.000Z",
      "2027-04-03T12:00:00.000Z",
    ]);

    // An undo of a published post is refused (its RSS item is out); the scheduled send alone cannot be undone.
    const undo = await server.json("/api/moderate/undo", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ feedId: "mixed", submissionId: undone }),
    });
    expect(undo.status).toBe(409);

    const retract = await server.json("/api/moderate/retract", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ feedId: "mixed", submissionId: retracted }),
    });
    expect(retract.status).toBe(200);
    const after = await line("mixed", key);
    expect(after.items.map((item) => item.submissionId)).toEqual(
      before.items.map((item) => item.submissionId).filter((id) => id !== retracted),
    );
    // The items behind it moved up into the freed time.
    expect(after.items.map((item) => item.plannedAt)).toEqual(
      before.items.slice(0, 2).map((i) => i.plannedAt),
    );
    const [job] = await server.db
      .select({ status: processingJobs.status })
      .from(processingJobs)
      .where(and(eq(processingJobs.submissionId, retracted), eq(processingJobs.kind, "approval")));
    expect(job.status).toBe("cancelled");
    expect(kept).toBeTruthy();
  });
});

describe("undo of an item that only waits for its slot", () => {
  it("cancels it before it goes", async () => {
    await addFeed("undoable", [webhook({ mode: "rate", count: 1, per: "day" })]);
    const first = await approve("undoable", "Goes at once: the channel was quiet");
    await until(() => delivered("undoable").length === 1, "the first send");
    const second = await approve("undoable", "Waits a day, then is undone");
    await until(async () => (await parkedJobs("undoable")) === 1, "the second parked");
    expect(delivered("undoable")).toEqual([first]);
    const undo = await server.json("/api/moderate/undo", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ feedId: "undoable", submissionId: second }),
    });
    expect(undo.body.data.results[0].outcome).toBe("undone");
    const key = await channelKeyOf("undoable");
    expect((await line("undoable", key)).pagination.totalCount).toBe(0);
    await advanceTo(new Date(now + 2 * 86_400_000).toISOString());
    // Nothing woke for it: its job is cancelled and its row says why.
    const [row] = await server.db
      .select({ status: scheduledSends.status, note: scheduledSends.note })
      .from(scheduledSends)
      .where(eq(scheduledSends.submissionId, second));
    expect(row.status).toBe("cancelled");
    expect(row.note).toContain("Undone by");
  });
});

describe("the Scheduled view's actions and a schedule change", () => {
  it("reorders, publishes now, removes, re-plans on a config change and says how many", async () => {
    now = Date.parse("2027-05-01T06:00:00Z");
    await addFeed("actions", [webhook({ mode: "slots", slots: ["10:00", "16:00"], timezone: "UTC" })]);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await approve("actions", `Action item ${i}`));
    await until(async () => (await parkedJobs("actions")) === 4, "four parked jobs");
    const key = await channelKeyOf("actions");
    const start = await line("actions", key);
    const times = start.items.map((item) => item.plannedAt);
    const order = start.items.map((item) => item.submissionId);

    // Move the last to the front: the line keeps its times, in the new order.
    const last = start.items[3];
    const moved = await server.json(`/api/processing/feeds/actions/schedule/sends/${last.id}/move`, {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ position: 1 }),
    });
    expect(moved.status).toBe(200);
    const reordered = await line("actions", key);
    expect(reordered.items.map((item) => item.submissionId)).toEqual([order[3], ...order.slice(0, 3)]);
    expect(reordered.items.map((item) => item.plannedAt)).toEqual(times);

    // Publish now: it goes without the clock moving; the others move up.
    const now1 = reordered.items[2];
    const published = await server.json(
      `/api/processing/feeds/actions/schedule/sends/${now1.id}/publish-now`,
      {
        method: "POST",
        headers: sessionHeaders(server, owner),
      },
    );
    expect(published.status).toBe(200);
    await until(() => delivered("actions").includes(now1.submissionId), "the send asked for now");
    await until(async () => (await line("actions", key)).pagination.totalCount === 3, "three left");
    const afterNow = await line("actions", key);
    expect(afterNow.items.map((item) => item.plannedAt)).toEqual(times.slice(0, 3));

    // Remove: it is never published on this channel, and its job says so.
    const removed = afterNow.items[0];
    const removal = await server.json(`/api/processing/feeds/actions/schedule/sends/${removed.id}`, {
      method: "DELETE",
      headers: sessionHeaders(server, owner),
    });
    expect(removal.status).toBe(200);
    await until(async () => {
      const [job] = await server.db
        .select({ status: processingJobs.status })
        .from(processingJobs)
        .where(eq(processingJobs.submissionId, removed.submissionId));
      return job?.status === "completed";
    }, "the removed item's job to end");
    expect((await line("actions", key)).items.map((item) => item.plannedAt)).toEqual(times.slice(0, 2));
    const again = await server.json(`/api/processing/feeds/actions/schedule/sends/${removed.id}`, {
      method: "DELETE",
      headers: sessionHeaders(server, owner),
    });
    expect(again.status).toBe(409);

    // A schedule change re-plans what waits and says how many.
    const { body: feed } = await server.json("/api/feeds/actions", {
      headers: sessionHeaders(server, owner),
    });
    const config = feed.data.config;
    config.outputs.stream.distribute[0].schedule = { mode: "slots", slots: ["23:00"], timezone: "UTC" };
    const saved = await server.json("/api/feeds/actions", {
      method: "PUT",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify(config),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.scheduleReplanned).toBe(2);
    expect(saved.body.message).toBe("Feed updated. 2 scheduled items were re-planned.");
    const replanned = await line("actions", key);
    for (const item of replanned.items) expect(item.plannedAt).toMatch(/T23:00:00\.000Z$/);

    // Made immediate: what waits goes at once.
    config.outputs.stream.distribute[0].schedule = { mode: "immediate" };
    const immediate = await server.json("/api/feeds/actions", {
      method: "PUT",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify(config),
    });
    expect(immediate.body.data.scheduleReplanned).toBe(2);
    await until(() => delivered("actions").length === 3, "the two waiting items at once");
    expect(delivered("actions")).not.toContain(removed.submissionId);
    expect(new Set(delivered("actions"))).toEqual(new Set(ids.filter((id) => id !== removed.submissionId)));
  });

  it("answers 400 to a bad schedule or position, 404 to an unknown item and 403 to a stranger", async () => {
    const { body: feed } = await server.json("/api/feeds/actions", {
      headers: sessionHeaders(server, owner),
    });
    const config = feed.data.config;
    config.outputs.stream.distribute[0].schedule = { mode: "slots", slots: ["25:00"] };
    const bad = await server.json("/api/feeds/actions", {
      method: "PUT",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify(config),
    });
    expect(bad.status).toBe(400);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const position = await server.json(`/api/processing/feeds/actions/schedule/sends/${unknown}/move`, {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ position: 0 }),
    });
    expect(position.status).toBe(400);
    const missing = await server.json(`/api/processing/feeds/actions/schedule/sends/${unknown}/publish-now`, {
      method: "POST",
      headers: sessionHeaders(server, owner),
    });
    expect(missing.status).toBe(404);
    const { cookie: stranger } = await signIn(server);
    const list = await server.json("/api/processing/feeds/actions/schedule", {
      headers: sessionHeaders(server, stranger),
    });
    expect(list.status).toBe(403);
    const noKey = await server.json("/api/processing/feeds/actions/schedule/sends", {
      headers: sessionHeaders(server, owner),
    });
    expect(noKey.status).toBe(400);
  });
});
