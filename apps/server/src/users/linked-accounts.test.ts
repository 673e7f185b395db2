import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeCrosspost } from "../../test/fakes/crosspost.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";

let server: TestServer;
let crosspost: Awaited<ReturnType<typeof startFakeCrosspost>>;
const alice = newKey();
const bob = newKey();
const carol = newKey();
const cookies: Record<string, string> = {};
const accounts: Parameters<typeof startFakeCrosspost>[0]["accounts"] = {};

beforeAll(async () => {
  accounts[alice.implicitAccountId] = {
    keys: [],
    targets: [{ platform: "twitter", userId: "101", username: "SolarAlice" }],
  };
  accounts[bob.implicitAccountId] = { keys: [], targets: [] };
  crosspost = await startFakeCrosspost({ accounts });
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "1000",
    CROSSPOST_API_URL: crosspost.url,
  });
  cookies.alice = (await signIn(server, alice)).cookie;
  cookies.bob = (await signIn(server, bob)).cookie;
  cookies.carol = (await signIn(server, carol)).cookie;
  await insertFeed(server.db, { id: "solarnews", approvers: { twitter: ["solaralice"] } });
});
afterAll(async () => {
  await server?.close();
  await crosspost?.close();
});

const sync = (who: string, body?: unknown) =>
  server.json("/api/users/me/linked-accounts/sync", {
    method: "POST",
    headers: sessionHeaders(server, cookies[who]),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const canModerate = async (who: string) =>
  (await server.json("/api/feeds/solarnews/can-moderate", { headers: sessionHeaders(server, cookies[who]) }))
    .body.data.canModerate;

describe("linked accounts on Crosspost's proof", () => {
  it("needs a session", async () => {
    const { status } = await server.json("/api/users/me/linked-accounts/sync", {
      method: "POST",
      headers: { Origin: server.baseUrl },
    });
    expect(status).toBe(401);
  });

  it("links the X handle Crosspost lists for the user's NEAR account, so the approver rule recognises them", async () => {
    expect(await canModerate("alice")).toBe(false);
    const { status, body } = await sync("alice");
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        platformName: "twitter",
        platformUserId: "101",
        username: "SolarAlice",
        profileImage: "https://pbs.twimg.com/profile_images/101.jpg",
      },
    ]);
    const asked = crosspost.requests.at(-1);
    expect(asked?.path).toBe("/api/auth/accounts");
    expect(asked?.headers["x-near-account"]).toBe(alice.implicitAccountId);
    expect(await canModerate("alice")).toBe(true);
    const listed = await server.json("/api/users/me/linked-accounts", {
      headers: sessionHeaders(server, cookies.alice),
    });
    expect(listed.body.data).toHaveLength(1);
  });

  it("never links on the browser's word", async () => {
    const { status, body } = await sync("bob", {
      platformName: "twitter",
      platformUserId: "101",
      username: "SolarAlice",
    });
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(await canModerate("bob")).toBe(false);
    expect(await canModerate("alice")).toBe(true);
  });

  it("links a handle to one account at a time: the latest proof moves it", async () => {
    accounts[bob.implicitAccountId].targets = [
      { platform: "twitter", userId: "101", username: "SolarAlice" },
    ];
    accounts[alice.implicitAccountId].targets = [];
    expect((await sync("bob")).body.data.map((a: { username: string }) => a.username)).toEqual([
      "SolarAlice",
    ]);
    expect(await canModerate("bob")).toBe(true);
    expect(await canModerate("alice")).toBe(false);
    expect((await sync("alice")).body.data).toEqual([]);
  });

  it("says so when Crosspost refuses the account (403) or cannot answer (503)", async () => {
    const refused = await sync("carol");
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("Authentication with Crosspost failed. Please try reconnecting.");
    crosspost.answerNext({ status: 503, body: { success: false } });
    crosspost.answerNext({ status: 503, body: { success: false } });
    const down = await sync("bob");
    expect(down.status).toBe(503);
    // An outage is not a "no": the links stay as they were.
    expect(await canModerate("bob")).toBe(true);
  });
});
