import { count, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeX } from "../../test/fake-x.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { submissionFeeds } from "../db/schema.ts";

/**
 * One account's many feeds against the operator's hourly X budget, through the worker's real intake tick and a
 * fake X that counts every call: the bot's mention polling keeps its calls, another account's feed gets its
 * searches, the greedy account gets its share and no more, what it could not have waits for later windows with its
 * cursors intact, and a spent budget is logged once per window.
 */
const BOT = "curatebot";
const BUDGET = 30;
const TICK_MS = 15 * 60_000;
const GREEDY_FEEDS = 15;
const SEARCHES_PER_FEED = 10;

let server: TestServer;
let x: Awaited<ReturnType<typeof startFakeX>>;
let now = new Date("2031-03-04T10:01:00Z");
const logged: Array<{ msg: string; resumesAt?: string }> = [];

const pad = (n: number) => String(n).padStart(2, "0");
const greedyFeed = (f: number) => `greedy${pad(f)}`;
const greedyQuery = (f: number, s: number) => `g${pad(f)}s${pad(s)}`;
const otherQueries = ["o00", "o01"];

/** X calls the fake received since `from`, by kind. */
function callsSince(from: number) {
  const calls = x.requests.slice(from);
  const searches = calls.filter((u) => u.pathname === "/2/tweets/search/recent").map((u) => u.searchParams);
  return {
    total: calls.length,
    mentions: calls.filter((u) => u.pathname.endsWith("/mentions")).length,
    other: searches.filter((p) => p.get("query")?.startsWith("o")).length,
    greedy: searches.filter((p) => p.get("query")?.startsWith("g")).map((p) => p.get("query") ?? ""),
  };
}

/** One intake tick at `at`, as the worker runs it; answers the X calls it made. */
async function tickAt(at: string) {
  now = new Date(at);
  const from = x.requests.length;
  await server.worker?.runIntakeNow();
  return callsSince(from);
}

const spentLines = () => logged.filter((line) => line.msg.includes("X API budget for this hour is spent"));

async function linksOf(feedId: string) {
  const [row] = await server.db
    .select({ n: count() })
    .from(submissionFeeds)
    .where(eq(submissionFeeds.feedId, feedId));
  return row.n;
}

beforeAll(async () => {
  x = await startFakeX({ bearerToken: "x-app-token", botUsername: BOT });
  const logger = pino(
    { level: "warn" },
    {
      write(line: string) {
        logged.push(JSON.parse(line));
      },
    },
  );
  server = await startTestServer(
    {
      BOT_HANDLE: BOT,
      X_API_BASE_URL: x.url,
      X_BEARER_TOKEN: "x-app-token",
      X_API_CALLS_PER_HOUR: String(BUDGET),
      INTAKE_INTERVAL_MS: String(TICK_MS),
    },
    { worker: { clock: () => now }, logger },
  );
  for (let f = 1; f <= GREEDY_FEEDS; f++) {
    const search = Array.from({ length: SEARCHES_PER_FEED }, (_, s) => ({ query: greedyQuery(f, s) }));
    await insertFeed(server.db, {
      id: greedyFeed(f),
      createdBy: "greedy.near",
      config: { sources: [{ plugin: "@curate/x-source", search }] } as never,
    });
    for (let s = 0; s < SEARCHES_PER_FEED; s++) x.post("writer", `A post about ${greedyQuery(f, s)}`);
  }
  await insertFeed(server.db, {
    id: "otherfeed",
    createdBy: "other.near",
    config: {
      sources: [{ plugin: "@curate/x-source", search: otherQueries.map((query) => ({ query })) }],
    } as never,
  });
  for (const query of otherQueries) x.post("writer", `A post about ${query}`);
});

afterAll(async () => {
  await server?.close();
  await x?.close();
});

describe("sharing the operator's X budget", () => {
  let windowTotal = 0;

  it("after a tick, mention polling ran, the other account got its searches, the greedy one its share", async () => {
    // 10:01 is the first of four ticks in the window. Mentions take their call (and the bot's id) first; three
    // more polls are kept aside; the rest is spread over the four ticks: ceil((30 - 2 - 3) / 4) = 7 searches.
    const first = await tickAt("2031-03-04T10:01:00Z");
    windowTotal += first.total;
    expect(first.mentions).toBe(1);
    expect(first.other).toBe(2);
    expect(first.greedy.length).toBeGreaterThan(0);
    expect(first.greedy.length).toBeLessThanOrEqual(7 - 2);
    // One search per greedy feed before any feed gets a second.
    const feedsServed = new Set(first.greedy.map((query) => query.slice(0, 3)));
    expect(feedsServed.size).toBe(first.greedy.length);
    expect(await linksOf("otherfeed")).toBe(2);
    expect(spentLines()).toEqual([]);
  });

  it("says on a feed's page that its X searches wait for the shared budget, and until about when", async () => {
    const waiting = await server.json(`/api/feeds/${greedyFeed(1)}`);
    expect(waiting.status).toBe(200);
    // Not spent yet: the next tick tries again.
    expect(waiting.body.data.xSearchWait).toEqual({
      searches: expect.any(Number),
      since: "2031-03-04T10:01:00.000Z",
      until: "2031-03-04T10:16:00.000Z",
    });
    expect(waiting.body.data.xSearchWait.searches).toBeGreaterThanOrEqual(SEARCHES_PER_FEED - 1);
    const served = await server.json("/api/feeds/otherfeed");
    expect(served.status).toBe(200);
    expect(served.body.data.xSearchWait).toBeNull();
  });

  it("keeps a poll for every tick of the window and logs the spent budget once", async () => {
    for (const at of ["2031-03-04T10:16:00Z", "2031-03-04T10:31:00Z", "2031-03-04T10:46:00Z"]) {
      const tick = await tickAt(at);
      expect(tick.mentions).toBe(1);
      expect(tick.other).toBe(2);
      windowTotal += tick.total;
    }
    expect(windowTotal).toBeLessThanOrEqual(BUDGET);
    // The last tick of the window gave searches all that was left: the budget is spent, said once.
    expect(spentLines()).toHaveLength(1);
    expect(spentLines()[0].resumesAt).toBe("2031-03-04T11:00:00.000Z");

    // Later in the same window nothing more goes to X, and the spent budget is not logged again.
    const late = await tickAt("2031-03-04T10:58:00Z");
    expect(late.total).toBe(0);
    expect(spentLines()).toHaveLength(1);
    const waiting = await server.json(`/api/feeds/${greedyFeed(1)}`);
    expect(waiting.body.data.xSearchWait).toMatchObject({
      since: "2031-03-04T10:01:00.000Z",
      until: "2031-03-04T11:00:00.000Z",
    });
  });

  it("runs the greedy feeds' waiting searches in later windows without skipping a post", async () => {
    const ranInFirstWindow = new Set(
      x.requests
        .filter((u) => u.pathname === "/2/tweets/search/recent")
        .map((u) => u.searchParams.get("query") ?? ""),
    );
    // A new post for a search that already ran: its cursor must bring it in later, as the others' must theirs.
    const [alreadyRan] = [...ranInFirstWindow].filter((query) => query.startsWith("g"));
    x.post("writer", `Another post about ${alreadyRan}`);

    const everGreedy = new Set<string>();
    for (let hour = 11; hour <= 22 && everGreedy.size < GREEDY_FEEDS * SEARCHES_PER_FEED; hour++) {
      const tick = await tickAt(`2031-03-04T${hour}:50:00Z`);
      expect(tick.mentions).toBe(1);
      expect(tick.other).toBe(2);
      expect(tick.total).toBeLessThanOrEqual(BUDGET);
      for (const query of tick.greedy) everGreedy.add(query);
      if (hour === 11) {
        const waitedSinceTheFirstWindow = tick.greedy.filter((query) => !ranInFirstWindow.has(query));
        expect(waitedSinceTheFirstWindow.length).toBeGreaterThan(0);
      }
    }
    expect(everGreedy.size).toBe(GREEDY_FEEDS * SEARCHES_PER_FEED);
    const perFeed = await Promise.all(
      Array.from({ length: GREEDY_FEEDS }, (_, index) => linksOf(greedyFeed(index + 1))),
    );
    const feedOfTheNewPost = Number(alreadyRan.slice(1, 3));
    expect(perFeed).toEqual(
      perFeed.map((_, index) => SEARCHES_PER_FEED + (index + 1 === feedOfTheNewPost ? 1 : 0)),
    );
    // Each window whose budget ran out said so once.
    const windows = spentLines().map((line) => line.resumesAt);
    expect(new Set(windows).size).toBe(windows.length);
  });
});
