import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

let server: TestServer;
const ownerKey = newKey();
const modKey = newKey();
let owner: string;
let mod: string;

beforeAll(async () => {
  server = await startTestServer({ WRITE_RATE_LIMIT_PER_MINUTE: "1000" });
  owner = (await signIn(server, ownerKey)).cookie;
  mod = (await signIn(server, modKey)).cookie;
  await insertFeed(server.db, {
    id: "offers",
    createdBy: ownerKey.implicitAccountId,
    config: {
      id: "offers",
      name: "Offers",
      description: "Trusted curators may be offered approver rights",
      outputs: { stream: { enabled: true } },
      moderation: {
        approvers: { twitter: [modKey.implicitAccountId, "tia"] },
        trust: {
          enabled: true,
          minApproved: 2,
          minApprovalRate: 50,
          lastDecided: 10,
          withinDays: 30,
          confirmAfterDays: 7,
          offerApprover: { minApproved: 3, minApprovalRate: 100 },
        },
      },
    },
  });
  // Sam has one approval and two posts waiting; Kim and Tia (already an approver) have three and one waiting.
  for (const [curator, approved, pending] of [
    ["sam", 1, 2],
    ["kim", 3, 2],
    ["tia", 3, 1],
  ] as const) {
    for (let i = 1; i <= approved; i++) {
      await insertSubmission(server.db, {
        tweetId: `${curator}-a${i}`,
        curatorUsername: curator,
        feeds: [{ feedId: "offers", status: "approved" }],
      });
    }
    for (let i = 1; i <= pending; i++) {
      await insertSubmission(server.db, {
        tweetId: `${curator}-p${i}`,
        curatorUsername: curator,
        feeds: [{ feedId: "offers" }],
      });
    }
  }
});

afterAll(() => server.close());

const approve = async (submissionId: string) => {
  const { status } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, mod),
    body: JSON.stringify({ feedId: "offers", submissionId, action: "approve" }),
  });
  expect(status).toBe(200);
};

const offers = async (cookie = owner) =>
  server.json("/api/feeds/offers/approver-offers", {
    headers: sessionHeaders(server, cookie),
  });

const answer = (personKey: string, what: "confirm" | "decline", cookie = owner) =>
  server.json(`/api/feeds/offers/approver-offers/${encodeURIComponent(personKey)}/${what}`, {
    method: "POST",
    headers: sessionHeaders(server, cookie),
  });

const approvers = async () => (await server.json("/api/feeds/offers")).body.data.config.moderation.approvers;

async function logged(action: string) {
  const { body } = await server.json(`/api/feeds/offers/log?action=${action}&order=oldest`);
  return body.data.items.map(
    (entry: { fields: { actor: { value: unknown }; details: { value: unknown } } }) => ({
      actor: entry.fields.actor.value,
      details: entry.fields.details.value,
    }),
  );
}

describe("approver rights offered to trusted curators over the higher bar", () => {
  it("trusts below the higher bar without an offer, and offers once the record clears it", async () => {
    await approve("sam-p1");
    expect((await server.json("/api/trust?feedId=offers")).body.data.items).toEqual([
      expect.objectContaining({
        curator: "sam",
        trusted: true,
        explanation: "2 of 2 approved in the last 30 days",
      }),
    ]);
    expect((await offers()).body.data.items).toEqual([]);

    await approve("sam-p2");
    const { status, body } = await offers();
    expect(status).toBe(200);
    expect(body.data.items).toEqual([
      {
        feedId: "offers",
        personKey: "handle:sam",
        curator: "sam",
        account: null,
        status: "offered",
        explanation: "3 of 3 approved in the last 30 days",
        offeredAt: expect.any(String),
        decidedAt: null,
        decidedBy: null,
      },
    ]);
    // Nothing changes until an owner confirms.
    expect(await approvers()).toEqual({ twitter: [modKey.implicitAccountId, "tia"] });
    expect(await logged("approver_offered")).toEqual([
      {
        actor: { account: null, handle: "sam" },
        details: { approved: 3, decided: 3, explanation: "3 of 3 approved in the last 30 days" },
      },
    ]);
  });

  it("offers nothing to a curator who already is an approver", async () => {
    await approve("tia-p1");
    const items = (await offers()).body.data.items;
    expect(items.map((offer: { curator: string }) => offer.curator)).toEqual(["sam"]);
  });

  it("shows the offers to the feed's owners only", async () => {
    const { status, body } = await offers(mod);
    expect(status).toBe(403);
    expect(body.error.code).toBe("FORBIDDEN");
    expect((await answer("handle:sam", "confirm", mod)).status).toBe(403);
    expect((await server.json("/api/feeds/offers/approver-offers")).status).toBe(401);
  });

  it("adds the curator to the approvers when an owner confirms, and logs it", async () => {
    const confirmed = await answer("handle:sam", "confirm");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      status: "confirmed",
      decidedBy: ownerKey.implicitAccountId,
      decidedAt: expect.any(String),
    });
    expect(await approvers()).toEqual({ twitter: [modKey.implicitAccountId, "tia", "sam"] });
    expect(await logged("approver_confirmed")).toEqual([
      {
        actor: { account: ownerKey.implicitAccountId, handle: null },
        details: { curator: "sam", explanation: "3 of 3 approved in the last 30 days" },
      },
    ]);
    expect((await logged("approvers_changed")).length).toBe(1);
    const again = await answer("handle:sam", "confirm");
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
  });

  it("changes nothing when an owner declines, and does not offer again by itself", async () => {
    await approve("kim-p1");
    expect((await offers()).body.data.items[0]).toMatchObject({ curator: "kim", status: "offered" });
    const declined = await answer("handle:kim", "decline");
    expect(declined.status).toBe(200);
    expect(declined.body.data.status).toBe("declined");
    expect(await approvers()).toEqual({ twitter: [modKey.implicitAccountId, "tia", "sam"] });

    await approve("kim-p2");
    const items = (await offers()).body.data.items;
    expect(items.filter((offer: { curator: string }) => offer.curator === "kim")).toEqual([
      expect.objectContaining({ status: "declined" }),
    ]);
    expect((await logged("approver_declined")).length).toBe(1);
    expect((await logged("approver_offered")).length).toBe(2);
    expect((await answer("handle:nobody", "confirm")).status).toBe(404);
  });
});
