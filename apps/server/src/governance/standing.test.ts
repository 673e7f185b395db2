import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

const DAY = 86_400_000;
/** The worker's clock: the scheduled trust pass evaluates as of it, and the tests move it. */
let now = new Date();
const clock = () => now;

let server: TestServer;
const ownerKey = newKey();
let owner: string;

beforeAll(async () => {
  server = await startTestServer({ WRITE_RATE_LIMIT_PER_MINUTE: "1000" }, { worker: { clock } });
  owner = (await signIn(server, ownerKey)).cookie;
  await insertFeed(server.db, {
    id: "window",
    createdBy: ownerKey.implicitAccountId,
    config: {
      id: "window",
      name: "Window",
      description: "Trust over the last 30 days",
      outputs: { stream: { enabled: true } },
      moderation: {
        trust: {
          enabled: true,
          minApproved: 3,
          minApprovalRate: 75,
          lastDecided: 10,
          withinDays: 30,
          confirmAfterDays: 7,
        },
      },
    },
  });
  // Sam's three approvals are 20 days old; Kim's are recent. Each has one post still waiting.
  for (const [curator, count] of [
    ["sam", 3],
    ["kim", 2],
  ] as const) {
    for (let i = 1; i <= count; i++) {
      await insertSubmission(server.db, {
        tweetId: `${curator}-a${i}`,
        curatorUsername: curator,
        feeds: [{ feedId: "window", status: "approved" }],
      });
    }
    await insertSubmission(server.db, {
      tweetId: `${curator}-p`,
      curatorUsername: curator,
      feeds: [{ feedId: "window" }],
    });
  }
  await server.db.execute(
    sql`update moderation_history set created_at = now() - interval '20 days' where submission_id like 'sam-a%'`,
  );
});

afterAll(() => server.close());

const approve = (submissionId: string) =>
  server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ feedId: "window", submissionId, action: "approve" }),
  });

async function standings() {
  const { body } = await server.json("/api/trust?feedId=window");
  return Object.fromEntries(
    body.data.items.map((item: { curator: string; trusted: boolean; explanation: string }) => [
      item.curator,
      { trusted: item.trusted, explanation: item.explanation },
    ]),
  );
}

async function demotions() {
  const { body } = await server.json("/api/feeds/window/log?action=demote&order=oldest");
  return body.data.items.map(
    (entry: { fields: { actor: { value: unknown }; details: { value: unknown } } }) => ({
      actor: entry.fields.actor.value,
      details: entry.fields.details.value,
    }),
  );
}

describe("earned trust re-evaluated as time passes", () => {
  it("keeps standings whose window still holds their record", async () => {
    expect((await approve("sam-p")).status).toBe(200);
    expect((await approve("kim-p")).status).toBe(200);
    expect(await standings()).toEqual({
      sam: { trusted: true, explanation: "4 of 4 approved in the last 30 days" },
      kim: { trusted: true, explanation: "3 of 3 approved in the last 30 days" },
    });

    now = new Date(Date.now() + 5 * DAY);
    expect(await server.worker?.runTrustNow()).toEqual({ evaluated: 2, changed: 0 });
    expect(await demotions()).toEqual([]);
  });

  it("demotes a curator whose approvals left the day window, with the reason, once", async () => {
    now = new Date(Date.now() + 12 * DAY);
    expect(await server.worker?.runTrustNow()).toEqual({ evaluated: 2, changed: 1 });
    expect(await standings()).toEqual({
      kim: { trusted: true, explanation: "3 of 3 approved in the last 30 days" },
      sam: { trusted: false, explanation: "1 of 1 approved in the last 30 days" },
    });
    const expected = [
      {
        actor: { account: null, handle: "sam" },
        details: {
          approved: 1,
          decided: 1,
          explanation: "1 of 1 approved in the last 30 days",
          pinned: null,
        },
      },
    ];
    expect(await demotions()).toEqual(expected);

    // The next pass finds nothing new to say.
    expect(await server.worker?.runTrustNow()).toEqual({ evaluated: 2, changed: 0 });
    expect(await demotions()).toEqual(expected);
  });

  it("says when each standing was evaluated: the pass's clock", async () => {
    const { body } = await server.json("/api/trust?feedId=window");
    for (const item of body.data.items) expect(item.evaluatedAt).toBe(now.toISOString());
    expect(body.data.items.find((item: { curator: string }) => item.curator === "sam").changedAt).toBe(
      now.toISOString(),
    );
  });
});
