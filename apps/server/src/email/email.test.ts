import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { type FakeSmtp, startFakeSmtp } from "../../test/fakes/smtp.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import {
  emailDeliveries,
  emailIssues,
  emailSubscribers,
  emailSuppressions,
  processingJobs,
} from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";

/**
 * Email newsletters (issue 34) through the real boundary: the app over HTTP, its worker, a relay on 127.0.0.1
 * speaking SMTP (smtp-server) and every mail read back by a MIME parser (mailparser).
 */
const WEBHOOK_SECRET = "whsec-email-events-0123456789";
let server: TestServer;
let smtp: FakeSmtp;
const ownerKey = newKey();
let owner: string;
let client = 0;

const emailStep = (config: Record<string, unknown> = {}) => ({ plugin: "@curate/email", config });

async function emailFeed(id: string, options: { recap?: boolean; stream?: boolean } = {}) {
  return insertFeed(server.db, {
    id,
    name: `The ${id} letter`,
    createdBy: ownerKey.implicitAccountId,
    config: {
      id,
      name: `The ${id} letter`,
      description: `About ${id}`,
      outputs: {
        stream: { enabled: true, distribute: options.stream === false ? [] : [emailStep()] },
        ...(options.recap
          ? {
              recap: {
                id: "weekly",
                name: "This week",
                enabled: true,
                schedule: "0 9 * * 1",
                timezone: "UTC",
                distribute: [emailStep()],
              },
            }
          : {}),
      },
    },
  });
}

/** Each test speaks from its own client address (TRUST_PROXY=1), so the per-client limit is its own. */
function reader() {
  client++;
  return {
    "Content-Type": "application/json",
    Origin: server.baseUrl,
    "X-Forwarded-For": `198.51.100.${client}`,
  };
}

const post = (path: string, body: unknown, headers: Record<string, string> = reader()) =>
  server.json(path, { method: "POST", headers, body: JSON.stringify(body) });

/** The link in a mail's text part that starts with `prefix`. */
function linkIn(text: string, prefix: string): string {
  const match = text.match(new RegExp(`${prefix.replaceAll(/[.?/]/g, "\\$&")}[A-Za-z0-9_=?&./-]+`));
  if (!match) throw new Error(`no link starting ${prefix} in:\n${text}`);
  return match[0];
}
const tokenOf = (link: string) => new URL(link).searchParams.get("token") as string;

/** The same bytes spelled another way: a 32-byte token's last character carries two spare bits; one flipped. */
function respelled(token: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const other = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(token.slice(-1)) ^ 1]}`;
  expect(Buffer.from(other, "base64url")).toEqual(Buffer.from(token, "base64url"));
  return other;
}

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Subscribes and confirms through the mails, as a reader does; answers the manage token. */
async function subscribed(feedId: string, address: string, mode: "every" | "digest" = "every") {
  const before = smtp.to(address).length;
  expect((await post("/api/email/subscribe", { feedId, email: address, mode })).status).toBe(202);
  await until(() => smtp.to(address).length > before, "the confirmation mail");
  const confirmation = smtp.to(address).at(-1);
  const link = linkIn(confirmation?.parsed.text ?? "", `${server.env.PUBLIC_URL}/email/confirm?token=`);
  const { status, body } = await post("/api/email/confirm", { token: tokenOf(link) });
  expect(status).toBe(200);
  return body.data.manageToken as string;
}

async function approve(feedId: string, content: string) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status, body } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  expect(status).toBe(200);
  const jobId = body.data.processingJobId as string;
  await until(async () => {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    return ["completed", "completed_with_errors", "failed"].includes(job?.status ?? "");
  }, "the processing job");
  return jobId;
}

const deliver = () =>
  server.worker?.runEmailDeliveryNow() as ReturnType<
    NonNullable<TestServer["worker"]>["runEmailDeliveryNow"]
  >;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer(
    {
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Curate Letters <letters@curate.test>",
      EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET,
      EMAIL_SENDS_PER_SECOND: "1000",
      // Deliveries run when a test asks (runEmailDeliveryNow), so each test sees exactly its own pass.
      EMAIL_TICK_MS: "3600000",
      EMAIL_SUBSCRIBERS_PER_FEED: "3",
      EMAIL_SUBSCRIBES_PER_ADDRESS_PER_HOUR: "3",
      EMAIL_SUBSCRIBES_PER_CLIENT_PER_HOUR: "4",
      TRUST_PROXY: "1",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
    },
    { worker: {} },
  );
  owner = (await signIn(server, ownerKey)).cookie;
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe("subscribing", () => {
  it("offers every item, and the digest only when a recap mails; off until the owner adds email", async () => {
    await emailFeed("plain");
    await emailFeed("weekly", { recap: true });
    await emailFeed("silent", { stream: false });
    const status = async (id: string) => (await server.json(`/api/email/feeds/${id}`)).body.data;
    expect(await status("plain")).toEqual({
      feedId: "plain",
      feedName: "The plain letter",
      availability: "on",
      modes: ["every"],
    });
    expect((await status("weekly")).modes).toEqual(["every", "digest"]);
    expect((await status("silent")).availability).toBe("feed-off");
    expect((await server.json("/api/email/feeds/nope")).status).toBe(404);

    const digestWithoutRecap = await post("/api/email/subscribe", {
      feedId: "plain",
      email: "d@example.org",
      mode: "digest",
    });
    expect(digestWithoutRecap.status).toBe(400);
    expect(digestWithoutRecap.body.error.details).toEqual([expect.objectContaining({ path: "mode" })]);
    const off = await post("/api/email/subscribe", { feedId: "silent", email: "d@example.org" });
    expect(off.status).toBe(409);
    expect(off.body.error.message).toBe("This feed does not send email.");
    const bad = await post("/api/email/subscribe", { feedId: "plain", email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([
      expect.objectContaining({ path: "email", message: "Enter a valid email address" }),
    ]);
  });

  it("double opt-in: a confirmation mail whose link works once, by POST, and only before it expires", async () => {
    await emailFeed("optin");
    const answer = await post("/api/email/subscribe", {
      feedId: "optin",
      email: " Reader@Example.org ",
      mode: "every",
    });
    expect(answer.status).toBe(202);
    expect(answer.body.data.message).toMatch(/^Check your inbox/);
    await until(() => smtp.to("reader@example.org").length === 1, "the confirmation mail");
    const [mail] = smtp.to("reader@example.org");
    expect(mail.parsed.subject).toBe("Confirm your subscription to The optin letter");
    expect(mail.parsed.from?.text).toBe('"Curate Letters" <letters@curate.test>');
    const link = linkIn(mail.parsed.text ?? "", `${server.env.PUBLIC_URL}/email/confirm?token=`);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    // Nothing is confirmed by opening the link (a GET of the page): only the page's POST does it.
    const [waiting] = await server.db
      .select()
      .from(emailSubscribers)
      .where(eq(emailSubscribers.feedId, "optin"));
    expect(waiting).toMatchObject({ status: "pending", address: "reader@example.org" });
    expect(waiting.confirmTokenHash).not.toContain(tokenOf(link));

    const confirmed = await post("/api/email/confirm", { token: tokenOf(link) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      feedId: "optin",
      feedName: "The optin letter",
      mode: "every",
      modes: ["every"],
    });
    const again = await post("/api/email/confirm", { token: tokenOf(link) });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/expired or was already used/);

    // A second request for a confirmed address answers the same and mails nothing.
    expect(
      (await post("/api/email/subscribe", { feedId: "optin", email: "reader@example.org" })).status,
    ).toBe(202);
    // An expired link confirms nothing.
    await post("/api/email/subscribe", { feedId: "optin", email: "late@example.org" });
    await until(() => smtp.to("late@example.org").length === 1, "the second confirmation mail");
    await server.db
      .update(emailSubscribers)
      .set({ confirmExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailSubscribers.address, "late@example.org"));
    const lateLink = linkIn(
      smtp.to("late@example.org")[0].parsed.text ?? "",
      `${server.env.PUBLIC_URL}/email/confirm?token=`,
    );
    expect((await post("/api/email/confirm", { token: tokenOf(lateLink) })).status).toBe(404);
    expect(smtp.to("reader@example.org")).toHaveLength(1);
  });

  it("paces requests per address and per client, and caps a feed's subscribers", async () => {
    await emailFeed("paced");
    const headers = reader();
    for (let i = 0; i < 3; i++) {
      expect(
        (await post("/api/email/subscribe", { feedId: "paced", email: "eager@example.org" }, reader()))
          .status,
      ).toBe(202);
    }
    const perAddress = await post(
      "/api/email/subscribe",
      { feedId: "paced", email: "eager@example.org" },
      reader(),
    );
    expect(perAddress.status).toBe(429);
    expect(perAddress.body.error.code).toBe("RATE_LIMITED");
    for (let i = 0; i < 4; i++) {
      await post("/api/email/subscribe", { feedId: "paced", email: `c${i}@example.org` }, headers);
    }
    const perClient = await post(
      "/api/email/subscribe",
      { feedId: "paced", email: "c9@example.org" },
      headers,
    );
    expect(perClient.status).toBe(429);
    expect(perClient.body.error.message).toMatch(/from this network/);
    // The rate-limit keys hold a hash of the address, never the address.
    const keys = await queryRows<{ key: string }>(
      server.db,
      sql`select key from rate_limits where key like 'email-%'`,
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toContain("example.org");
    // Three subscribers (waiting or confirmed) is this server's cap per feed.
    const full = await post(
      "/api/email/subscribe",
      { feedId: "paced", email: "fourth@example.org" },
      reader(),
    );
    expect(full.status).toBe(409);
    expect(full.body.error.message).toMatch(/as many subscribers as it may have/);
  });
});

describe("sending", () => {
  it("mails each approved item once to every-item readers: both parts, the unsubscribe headers and links", async () => {
    await emailFeed("news", { recap: true });
    await subscribed("news", "ann@example.org");
    await subscribed("news", "dig@example.org", "digest");
    const jobId = await approve("news", "A thing worth reading about <b>tags</b> & more");
    const [step] = await queryRows<{ output: { recipients: number; audience: string } }>(
      server.db,
      sql`select output from processing_steps where job_id = ${jobId} and type = 'distribution'`,
    );
    expect(step.output).toMatchObject({ recipients: 1, audience: "every" });

    const pass = await deliver();
    expect(pass).toMatchObject({ sent: 1, failed: 0 });
    const mails = smtp.to("ann@example.org").filter((m) => !m.parsed.subject?.startsWith("Confirm"));
    expect(mails).toHaveLength(1);
    const { parsed } = mails[0];
    expect(parsed.subject).toBe("New in The news letter");
    // The headers as the parser split them (mailparser folds List-* headers into one object otherwise).
    const header = (name: string) =>
      (parsed.headerLines.find((line) => line.key === name)?.line ?? "").replace(/\r\n[ \t]+/g, " ");
    const oneClickUrl = /^List-Unsubscribe: <(.+)>$/i.exec(header("list-unsubscribe"))?.[1] ?? "";
    expect(oneClickUrl).toMatch(
      new RegExp(`^${server.env.PUBLIC_URL}/api/email/one-click\\?token=[A-Za-z0-9_-]+$`),
    );
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(header("list-id")).toBe(`List-ID: <news.feeds.${new URL(server.env.PUBLIC_URL).hostname}>`);
    // Both parts, the post's text escaped in HTML, and the reader's own links in each.
    expect(parsed.text).toContain("A thing worth reading about <b>tags</b> & more");
    expect(parsed.html).toContain("A thing worth reading about &lt;b&gt;tags&lt;/b&gt; &amp; more");
    expect(parsed.html).toContain('name="color-scheme" content="light dark"');
    const token = tokenOf(oneClickUrl);
    for (const part of [parsed.text ?? "", parsed.html || ""]) {
      expect(part).toContain(`${server.env.PUBLIC_URL}/email/unsubscribe?token=${token}`);
      expect(part).toContain(`${server.env.PUBLIC_URL}/email/manage?token=${token}`);
      expect(part).not.toContain("%%");
    }
    // The digest reader got nothing for the item; a second pass sends nothing again.
    expect(smtp.to("dig@example.org").filter((m) => !m.parsed.subject?.startsWith("Confirm"))).toHaveLength(
      0,
    );
    expect(await deliver()).toMatchObject({ sent: 0 });
    // Addresses stay in their one table: not in jobs, steps, issues or delivery records.
    const [elsewhere] = await queryRows<{ dump: string }>(
      server.db,
      sql`select concat((select json_agg(j)::text from processing_jobs j), (select json_agg(s)::text from processing_steps s),
        (select json_agg(i)::text from email_issues i), (select json_agg(d)::text from email_deliveries d)) as dump`,
    );
    const dump = elsewhere.dump;
    expect(dump).toContain("A thing worth reading about");
    expect(dump).not.toContain("@example.org");
  });

  it("a delivery claimed by a worker that died is never mailed again; one the relay deferred is, later", async () => {
    await emailFeed("crash");
    await subscribed("crash", "once@example.org");
    await subscribed("crash", "later@example.org");
    await approve("crash", "An item for the crash test");
    const [issue] = await server.db.select().from(emailIssues).where(eq(emailIssues.feedId, "crash"));
    const [once] = await server.db
      .select()
      .from(emailSubscribers)
      .where(eq(emailSubscribers.address, "once@example.org"));
    // A worker claimed this one and was killed before recording the relay's answer.
    await server.db.execute(
      sql`update email_deliveries set status = 'sending' where issue_id = ${issue.id} and subscriber_id = ${once.id}`,
    );
    smtp.deferNext(1);
    expect(await deliver()).toMatchObject({ sent: 0, deferred: 1 });
    expect(await deliver()).toMatchObject({ sent: 1 });
    const items = (address: string) =>
      smtp.to(address).filter((m) => m.parsed.subject === "New in The crash letter");
    expect(items("later@example.org")).toHaveLength(1);
    expect(items("once@example.org")).toHaveLength(0);
    const rows = await server.db.select().from(emailDeliveries).where(eq(emailDeliveries.issueId, issue.id));
    expect(rows.map((row) => row.status).sort()).toEqual(["sending", "sent"]);
  });

  it("a permanent refusal at RCPT suppresses the address: subscription gone, only a salted hash kept", async () => {
    await emailFeed("bouncy");
    await subscribed("bouncy", "gone@example.org");
    smtp.refuse.add("gone@example.org");
    await approve("bouncy", "Nobody will read this");
    expect(await deliver()).toMatchObject({ sent: 0, suppressed: 1 });
    expect(
      await server.db.select().from(emailSubscribers).where(eq(emailSubscribers.address, "gone@example.org")),
    ).toHaveLength(0);
    const suppressions = await server.db.select().from(emailSuppressions);
    expect(suppressions.some((row) => row.reason === "rejected" && row.feedId === null)).toBe(true);
    expect(JSON.stringify(suppressions)).not.toContain("gone@");
    smtp.refuse.delete("gone@example.org");
    // Asking again answers as always, and no confirmation mail goes to a suppressed address.
    const before = smtp.to("gone@example.org").length;
    expect((await post("/api/email/subscribe", { feedId: "bouncy", email: "gone@example.org" })).status).toBe(
      202,
    );
    expect(smtp.to("gone@example.org")).toHaveLength(before);
  });

  it("the provider's webhook needs its password; a bounce or complaint removes the address everywhere", async () => {
    await emailFeed("hooked");
    await subscribed("hooked", "complains@example.org");
    const event = { type: "complaint", email: "Complains@example.org" };
    const json = { "Content-Type": "application/json" };
    expect((await post("/api/email/events", event, json)).status).toBe(401);
    const wrong = `Basic ${Buffer.from("provider:wrong-password-0000000").toString("base64")}`;
    expect((await post("/api/email/events", event, { ...json, Authorization: wrong })).status).toBe(401);
    const right = `Basic ${Buffer.from(`provider:${WEBHOOK_SECRET}`).toString("base64")}`;
    const soft = await post(
      "/api/email/events",
      { type: "bounce", email: "complains@example.org", permanent: false },
      { ...json, Authorization: right },
    );
    expect(soft.body.data).toEqual({ suppressed: false, subscriptionsRemoved: 0 });
    const { status, body } = await post("/api/email/events", event, { ...json, Authorization: right });
    expect(status).toBe(200);
    expect(body.data).toEqual({ suppressed: true, subscriptionsRemoved: 1 });
  });

  it("a digest goes to digest readers when the recap runs", async () => {
    await emailFeed("recapped", { recap: true, stream: false });
    await subscribed("recapped", "weekly@example.org", "digest");
    await insertSubmission(server.db, {
      content: "First of the week",
      feeds: [{ feedId: "recapped", status: "approved" }],
    });
    await insertSubmission(server.db, {
      content: "Second of the week",
      feeds: [{ feedId: "recapped", status: "approved" }],
    });
    const run = await server.json("/api/processing/feeds/recapped/recaps/weekly/run", {
      method: "POST",
      headers: sessionHeaders(server, owner),
    });
    expect(run.status).toBe(201);
    await until(
      async () =>
        (await server.db.select().from(emailIssues).where(eq(emailIssues.feedId, "recapped"))).length === 1,
      "the digest issue",
    );
    expect(await deliver()).toMatchObject({ sent: 1 });
    const [digest] = smtp.to("weekly@example.org").filter((m) => !m.parsed.subject?.startsWith("Confirm"));
    expect(digest.parsed.subject).toBe("The recapped letter: This week");
    expect(digest.parsed.text).toContain("First of the week");
    expect(digest.parsed.text).toContain("Second of the week");
  });
});

describe("previews and retraction", () => {
  it("a preview shows the mail and its audience and sends nothing; a retraction cancels what has not gone out", async () => {
    await emailFeed("careful");
    await subscribed("careful", "patient@example.org");
    const { tweetId } = await insertSubmission(server.db, {
      content: "Worth a preview",
      feeds: [{ feedId: "careful" }],
    });
    const preview = await server.json("/api/processing/preview", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ submissionId: tweetId, feedId: "careful" }),
    });
    expect(preview.status).toBe(200);
    const [channel] = preview.body.data.channels;
    expect(channel).toMatchObject({
      pluginName: "@curate/email",
      status: "rendered",
      action: "queueIssue",
      request: { audience: "every", subject: "New in The careful letter", recipients: 1 },
    });
    expect(channel.request.text).toContain("Worth a preview");
    expect(await server.db.select().from(emailIssues).where(eq(emailIssues.feedId, "careful"))).toHaveLength(
      0,
    );

    const approved = await server.json("/api/moderate", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ submissionId: tweetId, feedId: "careful", action: "approve" }),
    });
    const jobId = approved.body.data.processingJobId as string;
    await until(
      async () =>
        (await server.db.select().from(emailIssues).where(eq(emailIssues.jobId, jobId))).length === 1,
      "the issue",
    );
    // Retracted before the delivery pass: its mail is cancelled, and the ledger says a mail cannot be taken back.
    const retract = await server.json("/api/moderate/retract", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ submissionId: tweetId, feedId: "careful" }),
    });
    expect(retract.status).toBe(200);
    await until(async () => {
      const rows = await server.db
        .select()
        .from(emailDeliveries)
        .where(eq(emailDeliveries.feedId, "careful"));
      return rows.length === 1 && rows[0].status === "cancelled";
    }, "the cancelled delivery");
    await deliver();
    expect(
      smtp.to("patient@example.org").filter((m) => m.parsed.subject === "New in The careful letter"),
    ).toHaveLength(0);
    // The retraction's job records the ledger's answer after it has cancelled the deliveries: wait for that state.
    let entry: { status: string; note: string } | undefined;
    await until(async () => {
      [entry] = await queryRows<{ status: string; note: string }>(
        server.db,
        sql`select status, retraction_note as note from publications where job_id = ${jobId}`,
      );
      return entry?.status === "cannot_retract";
    }, "the ledger entry the retraction recorded");
    expect(entry?.note).toMatch(/^A sent email cannot be taken back.* 0 sent; 1 not sent yet, cancelled\.$/);
  });
});

describe("leaving, managing and owning", () => {
  it("RFC 8058 one-click POST unsubscribes without a session; the page's POST and a repeat too", async () => {
    await emailFeed("leaving", { recap: true });
    const manage = await subscribed("leaving", "bye@example.org");
    const page = await server.json(`/api/email/subscription?token=${manage}`);
    expect(page.body.data).toMatchObject({ feedId: "leaving", mode: "every", modes: ["every", "digest"] });
    expect(JSON.stringify(page.body)).not.toContain("bye@");
    const changed = await server.json("/api/email/subscription", {
      method: "PUT",
      headers: reader(),
      body: JSON.stringify({ token: manage, mode: "digest" }),
    });
    expect(changed.body.data.mode).toBe("digest");

    // As a mail program sends it: form-encoded, no Origin, no cookie.
    const oneClick = await server.request(`/api/email/one-click?token=${manage}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(
      await server.db.select().from(emailSubscribers).where(eq(emailSubscribers.feedId, "leaving")),
    ).toHaveLength(0);
    const [record] = await server.db
      .select()
      .from(emailSuppressions)
      .where(eq(emailSuppressions.feedId, "leaving"));
    expect(record.reason).toBe("unsubscribed");
    expect(record.addressHash).toMatch(/^[0-9a-f]{64}$/);
    const repeat = await post("/api/email/unsubscribe", { token: manage });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toBeNull();
    expect((await server.json(`/api/email/subscription?token=${manage}`)).status).toBe(404);
    // One character changed in its MAC, and one changed in only the spare bits of its last character.
    const middle = manage.length - 5;
    const forged = `${manage.slice(0, middle)}${manage[middle] === "A" ? "B" : "A"}${manage.slice(middle + 1)}`;
    expect((await post("/api/email/unsubscribe", { token: forged })).status).toBe(404);
    expect((await post("/api/email/unsubscribe", { token: respelled(manage) })).status).toBe(404);
  });

  it("owners see counts and growth, export their list and send a test; others see nothing", async () => {
    await emailFeed("owned");
    await subscribed("owned", "first@example.org");
    await post("/api/email/subscribe", { feedId: "owned", email: "waits@example.org" });
    const { status, body } = await server.json("/api/feeds/owned/email", {
      headers: sessionHeaders(server, owner),
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      availability: "on",
      confirmed: 1,
      pending: 1,
      byMode: { every: 1, digest: 0 },
      cap: 3,
    });
    expect(body.data.growth).toHaveLength(30);
    expect(body.data.growth.at(-1).confirmed).toBe(1);

    const csv = await server.request("/api/feeds/owned/email/export", {
      headers: sessionHeaders(server, owner),
    });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe("email,mode,status,subscribed_at,confirmed_at");
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 3).join(","))).toEqual([
      "first@example.org,every,confirmed",
      "waits@example.org,every,pending",
    ]);
    const stranger = (await signIn(server)).cookie;
    expect(
      (await server.json("/api/feeds/owned/email", { headers: sessionHeaders(server, stranger) })).status,
    ).toBe(403);
    expect(
      (await server.request("/api/feeds/owned/email/export", { headers: sessionHeaders(server, stranger) }))
        .status,
    ).toBe(403);

    const test = await server.json("/api/feeds/owned/email/test", {
      method: "POST",
      headers: sessionHeaders(server, owner),
      body: JSON.stringify({ email: "me@example.org" }),
    });
    expect(test.status).toBe(200);
    await until(() => smtp.to("me@example.org").length === 1, "the test mail");
    expect(smtp.to("me@example.org")[0].parsed.subject).toBe("Test: The owned letter");
  });

  it("a deleted feed stops its mails and deletes its subscribers", async () => {
    await insertFeed(server.db, {
      id: "doomed",
      createdBy: ownerKey.implicitAccountId,
      config: {
        id: "doomed",
        name: "Doomed",
        description: "Soon gone",
        outputs: { stream: { enabled: true, distribute: [emailStep()] } },
      },
    });
    await subscribed("doomed", "last@example.org");
    await approve("doomed", "Never delivered");
    expect(
      (await server.db.select().from(emailDeliveries).where(eq(emailDeliveries.feedId, "doomed"))).length,
    ).toBe(1);
    const removed = await server.json("/api/feeds/doomed", {
      method: "DELETE",
      headers: sessionHeaders(server, owner),
    });
    expect(removed.status).toBe(200);
    expect(
      await server.db.select().from(emailSubscribers).where(eq(emailSubscribers.feedId, "doomed")),
    ).toHaveLength(0);
    expect(
      await server.db.select().from(emailDeliveries).where(eq(emailDeliveries.feedId, "doomed")),
    ).toHaveLength(0);
    await deliver();
    expect(smtp.to("last@example.org").filter((m) => m.parsed.subject === "New in Doomed")).toHaveLength(0);
  });
});

describe("without SMTP_URL", () => {
  it("says plainly that email is off", async () => {
    const off = await startTestServer({ EMAIL_DEV_CATCHALL: "false" });
    try {
      await insertFeed(off.db, {
        id: "quiet",
        config: {
          id: "quiet",
          name: "Quiet",
          description: "x",
          outputs: { stream: { enabled: true, distribute: [emailStep()] } },
        },
      });
      expect((await off.json("/api/email/feeds/quiet")).body.data.availability).toBe("smtp-off");
      const refused = await off.json("/api/email/subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: off.baseUrl },
        body: JSON.stringify({ feedId: "quiet", email: "x@example.org" }),
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(
        "Email is off on this server: its operator has not set up sending mail (SMTP_URL).",
      );
    } finally {
      await off.close();
    }
  });
});

describe("the development catch-all", () => {
  it("lists the caught mails a page at a time and opens one with its headers and both parts", async () => {
    const dev = await startTestServer({ EMAIL_DEV_CATCHALL: "true", EMAIL_TICK_MS: "3600000" });
    try {
      await insertFeed(dev.db, {
        id: "caught",
        name: "Caught",
        config: {
          id: "caught",
          name: "Caught",
          description: "x",
          outputs: { stream: { enabled: true, distribute: [emailStep()] } },
        },
      });
      const headers = { "Content-Type": "application/json", Origin: dev.baseUrl };
      for (const email of ["one@example.org", "two@example.org", "three@example.org"]) {
        const subscribe = await dev.json("/api/email/subscribe", {
          method: "POST",
          headers,
          body: JSON.stringify({ feedId: "caught", email }),
        });
        expect(subscribe.status).toBe(202);
      }
      // A mail still being written (the catch-all writes aside, then renames) is not listed or parsed half-done.
      const { MAIL } = dev.env;
      if (MAIL.kind !== "catch-all") throw new Error("the catch-all is on in this server");
      expect(readdirSync(MAIL.dir).filter((name) => !name.endsWith(".json"))).toEqual([]);
      writeFileSync(join(MAIL.dir, "9999-99-99T99-99-99-999Z-halfdone.json.partial"), '{"id":"9999-');

      const first = await dev.json("/api/test/mails?limit=2");
      expect(first.status).toBe(200);
      expect(first.body.data.pagination).toEqual({ page: 0, limit: 2, hasNextPage: true, totalCount: 3 });
      expect(first.body.data.items.map((mail: { to: string }) => mail.to)).toEqual([
        "three@example.org",
        "two@example.org",
      ]);
      const second = await dev.json("/api/test/mails?limit=2&page=1");
      expect(second.body.data.items).toHaveLength(1);
      expect(second.body.data.pagination.hasNextPage).toBe(false);
      const [oldest] = second.body.data.items;
      expect(oldest).toMatchObject({ to: "one@example.org", subject: "Confirm your subscription to Caught" });
      expect(Object.keys(oldest).sort()).toEqual(["from", "id", "sentAt", "subject", "to"]);

      const opened = await dev.json(`/api/test/mails/${oldest.id}`);
      expect(opened.status).toBe(200);
      expect(opened.body.data).toMatchObject({ ...oldest, headers: expect.any(Object) });
      expect(opened.body.data.text).toContain(`${dev.env.PUBLIC_URL}/email/confirm?token=`);
      expect(opened.body.data.html).toContain("/email/confirm?token=");

      // An id is a file's name in the catch-all's folder and nothing else.
      expect((await dev.json("/api/test/mails/..%2Fsession-secret")).status).toBe(400);
      expect((await dev.json("/api/test/mails/2026-01-01T00-00-00-000Z-deadbeef")).status).toBe(404);
      expect((await dev.json("/api/test/mails?limit=101")).status).toBe(400);
    } finally {
      await dev.close();
    }
  });

  it("shows an issue's List-Unsubscribe headers", async () => {
    const dev = await startTestServer(
      { EMAIL_DEV_CATCHALL: "true", EMAIL_TICK_MS: "3600000", EMAIL_SENDS_PER_SECOND: "1000" },
      { worker: {} },
    );
    try {
      const { cookie } = await signIn(dev, ownerKey);
      await insertFeed(dev.db, {
        id: "headers",
        name: "Headers",
        createdBy: ownerKey.implicitAccountId,
        config: {
          id: "headers",
          name: "Headers",
          description: "x",
          outputs: { stream: { enabled: true, distribute: [emailStep()] } },
        },
      });
      const headers = { "Content-Type": "application/json", Origin: dev.baseUrl };
      const newest = async () => {
        const [listed] = (await dev.json("/api/test/mails")).body.data.items;
        return (await dev.json(`/api/test/mails/${listed.id}`)).body.data;
      };
      await dev.json("/api/email/subscribe", {
        method: "POST",
        headers,
        body: JSON.stringify({ feedId: "headers", email: "reader@example.org" }),
      });
      const confirmation = await newest();
      const token = tokenOf(linkIn(confirmation.text, `${dev.env.PUBLIC_URL}/email/confirm?token=`));
      const confirmed = await dev.json("/api/email/confirm", {
        method: "POST",
        headers,
        body: JSON.stringify({ token }),
      });
      expect(confirmed.status).toBe(200);
      const { tweetId } = await insertSubmission(dev.db, {
        content: "Headers",
        feeds: [{ feedId: "headers" }],
      });
      const moderated = await dev.json("/api/moderate", {
        method: "POST",
        headers: sessionHeaders(dev, cookie),
        body: JSON.stringify({ submissionId: tweetId, feedId: "headers", action: "approve" }),
      });
      expect(moderated.status).toBe(200);
      await until(async () => {
        await dev.worker?.runEmailDeliveryNow();
        return (await newest()).subject === "New in Headers";
      }, "the issue's mail");
      const issue = await newest();
      expect(issue.to).toBe("reader@example.org");
      expect(issue.headers["List-Unsubscribe"]).toMatch(/^<http:\/\/.+\/api\/email\/one-click\?token=/);
      expect(issue.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    } finally {
      await dev.close();
    }
  });

  it("is refused in production and on a development server others can reach", async () => {
    const production = await startTestServer({
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      LOG_SIGNING_KEY: "a".repeat(64),
    });
    const exposed = await startTestServer({
      NODE_ENV: "development",
      PUBLIC_URL: "https://curate.example",
      ALLOW_PUBLIC_TRIAL: "true",
    });
    try {
      // The exposed development server does catch its mails; only no one may read them over HTTP.
      expect(exposed.env.MAIL.kind).toBe("catch-all");
      for (const refusing of [production, exposed]) {
        expect((await refusing.json("/api/test/mails")).status).toBe(404);
        expect((await refusing.json("/api/test/mails/2026-01-01T00-00-00-000Z-deadbeef")).status).toBe(404);
        const paths = Object.keys((await refusing.json("/api/openapi.json")).body.paths);
        expect(paths.filter((path) => path.startsWith("/test/mails"))).toEqual([]);
      }
    } finally {
      await production.close();
      await exposed.close();
    }
  });
});
