import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { moderationHistory, processingJobs } from "../db/schema.ts";

let server: TestServer;
const moderatorKey = newKey();
let moderator: string;
let stranger: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  await insertFeed(server.db, { id: "ai", approvers: { twitter: [moderatorKey.implicitAccountId] } });
  await insertFeed(server.db, { id: "web3" });
  for (const id of ["1", "2", "3", "4"])
    await insertSubmission(server.db, { tweetId: id, feeds: [{ feedId: "ai" }] });
  await insertSubmission(server.db, { tweetId: "5", feeds: [{ feedId: "web3" }] });
  moderator = (await signIn(server, moderatorKey)).cookie;
  stranger = (await signIn(server)).cookie;
});

afterAll(() => server.close());

const moderate = (cookie: string | null, body: Record<string, unknown>) =>
  server.json("/api/moderate", {
    method: "POST",
    headers: cookie
      ? sessionHeaders(server, cookie)
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: JSON.stringify(body),
  });

const historyOf = (id: string) =>
  server.db.select().from(moderationHistory).where(eq(moderationHistory.submissionId, id));
const jobsOf = (id: string) =>
  server.db.select().from(processingJobs).where(eq(processingJobs.submissionId, id));

describe("POST /api/moderate", () => {
  it("approves as the session's account whatever the body claims, and requests processing", async () => {
    const { status, body } = await moderate(moderator, {
      submissionId: "1",
      feedId: "AI",
      action: "approve",
      note: " looks good ",
      moderatorAccountId: "someone-else.near",
      moderatorAccountIdType: "near",
      source: "ui",
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      submissionId: "1",
      feedId: "ai",
      status: "approved",
      processingJobId: expect.any(String),
      moderation: { moderatorAccountId: moderatorKey.implicitAccountId, source: "ui", note: "looks good" },
    });
    const single = await server.json("/api/submissions/single/1");
    expect(single.body.data.status).toBe("approved");
    expect(single.body.data.moderationHistory).toHaveLength(1);
    expect(await jobsOf("1")).toEqual([expect.objectContaining({ feedId: "ai", status: "pending" })]);
  });

  it("rejects without a processing request", async () => {
    const { body } = await moderate(moderator, { submissionId: "2", feedId: "ai", action: "reject" });
    expect(body.data.status).toBe("rejected");
    expect(await jobsOf("2")).toEqual([]);
  });

  it("answers 409 to a second decision, leaving one history row and one processing request", async () => {
    const again = await moderate(moderator, { submissionId: "1", feedId: "ai", action: "approve" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
    const flip = await moderate(moderator, { submissionId: "1", feedId: "ai", action: "reject" });
    expect(flip.status).toBe(409);
    expect(await historyOf("1")).toHaveLength(1);
    expect(await jobsOf("1")).toHaveLength(1);
  });

  it("lets only one of two simultaneous approvals through", async () => {
    const results = await Promise.all([
      moderate(moderator, { submissionId: "3", feedId: "ai", action: "approve" }),
      moderate(moderator, { submissionId: "3", feedId: "ai", action: "approve" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await historyOf("3")).toHaveLength(1);
    expect(await jobsOf("3")).toHaveLength(1);
  });

  it("is 401 signed out, 403 for a non-moderator, 404 for unknown submissions, links and feeds", async () => {
    const anonymous = await moderate(null, { submissionId: "4", feedId: "ai", action: "approve" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe("User not authenticated or account ID missing.");
    expect((await moderate(stranger, { submissionId: "4", feedId: "ai", action: "approve" })).status).toBe(
      403,
    );
    expect(
      (await moderate(moderator, { submissionId: "nope", feedId: "ai", action: "approve" })).status,
    ).toBe(404);
    expect((await moderate(moderator, { submissionId: "5", feedId: "ai", action: "approve" })).status).toBe(
      404,
    );
    expect(
      (await moderate(moderator, { submissionId: "4", feedId: "nofeed", action: "approve" })).status,
    ).toBe(404);
    expect(await historyOf("4")).toEqual([]);
  });

  it.each([
    [{ feedId: "ai", action: "approve" }, "Submission ID is required"],
    [{ submissionId: "4", action: "approve" }, "Feed ID is required"],
    [{ submissionId: " ", feedId: "ai", action: "approve" }, "Submission ID is required"],
    [{ submissionId: "4", feedId: "ai", action: "maybe" }, "action"],
  ])("refuses %o with a 400 (%s)", async (body, message) => {
    const { status, body: answer } = await moderate(moderator, body);
    expect(status).toBe(400);
    expect(answer.error.message).toContain(message);
  });
});
