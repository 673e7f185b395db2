import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { signIn } from "../../test/session.ts";
import { linkedAccounts, users } from "../db/schema.ts";

let server: TestServer;
const keys = {
  creator: newKey(),
  admin: newKey(),
  approver: newKey(),
  linked: newKey(),
  superAdmin: newKey(),
  stranger: newKey(),
};
const cookies: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    SUPER_ADMIN_ACCOUNTS: keys.superAdmin.implicitAccountId,
  });
  await insertFeed(server.db, {
    id: "ai",
    name: "AI",
    createdBy: keys.creator.implicitAccountId,
    admins: [keys.admin.implicitAccountId.toUpperCase()],
    config: {
      id: "ai",
      name: "AI",
      description: "x",
      moderation: { approvers: { twitter: [keys.approver.implicitAccountId, "@Linked_Handle"] } },
    },
  });
  await insertFeed(server.db, { id: "web3", name: "Web3", config: { moderation: { approvers: "broken" } } });
  for (const [role, key] of Object.entries(keys)) cookies[role] = (await signIn(server, key)).cookie;
  const [linkedUser] = await server.db
    .select()
    .from(users)
    .where(eq(users.nearAccountId, keys.linked.implicitAccountId));
  await server.db
    .insert(linkedAccounts)
    .values({ userId: linkedUser.id, platformName: "x", platformUserId: "42", username: "linked_handle" });
  await insertSubmission(server.db, { curatorUsername: "linked_handle", feeds: [{ feedId: "web3" }] });
});

afterAll(() => server.close());

const canModerate = (feedId: string, role?: keyof typeof keys) =>
  server.json(`/api/feeds/${feedId}/can-moderate`, { headers: role ? { Cookie: cookies[role] } : {} });

describe("GET /api/feeds/{id}/can-moderate", () => {
  it.each([
    ["creator", true, "creator"],
    ["admin", true, "admin"],
    ["superAdmin", true, "super_admin"],
    ["approver", true, "approver"],
    ["linked", true, "approver"],
    ["stranger", false, "not_moderator"],
  ] as const)("%s → canModerate %s (%s)", async (role, expected, reason) => {
    const { status, body } = await canModerate("ai", role);
    expect(status).toBe(200);
    expect(body.data).toEqual({ canModerate: expected, reason });
  });

  it("says no when signed out, and 404 for an unknown feed", async () => {
    expect((await canModerate("ai")).body.data).toEqual({ canModerate: false, reason: "not_signed_in" });
    expect((await canModerate("nope", "creator")).status).toBe(404);
    expect((await canModerate("nope")).status).toBe(404);
  });

  it("copes with a malformed approvers section", async () => {
    expect((await canModerate("web3", "approver")).body.data.canModerate).toBe(false);
  });
});

describe("a user's feeds", () => {
  it("lists feeds an account created or administers", async () => {
    const created = await server.json(`/api/users/${keys.creator.implicitAccountId}/feeds`);
    expect(created.body.data.map((f: { id: string }) => f.id)).toEqual(["ai"]);
    const administered = await server.json(`/api/users/${keys.admin.implicitAccountId}/feeds`);
    expect(administered.body.data.map((f: { id: string }) => f.id)).toEqual(["ai"]);
    expect((await server.json("/api/users/nobody.near/feeds")).body.data).toEqual([]);
    expect((await server.json("/api/users/Not%20An%20Account/feeds")).status).toBe(400);
  });

  it("lists Approver For and Curator For for the signed-in user", async () => {
    const approver = await server.json("/api/activity/feeds/approved-by/me", {
      headers: { Cookie: cookies.linked },
    });
    expect(approver.body.data.map((f: { id: string }) => f.id)).toEqual(["ai"]);
    const curator = await server.json("/api/activity/feeds/curated-by/me", {
      headers: { Cookie: cookies.linked },
    });
    expect(curator.body.data.map((f: { id: string }) => f.id)).toEqual(["web3"]);
    const stranger = await server.json("/api/activity/feeds/approved-by/me", {
      headers: { Cookie: cookies.stranger },
    });
    expect(stranger.body.data).toEqual([]);
    expect((await server.json("/api/activity/feeds/curated-by/me")).status).toBe(401);
  });
});
