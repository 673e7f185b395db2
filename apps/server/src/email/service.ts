import {
  EMAIL_LIMITS,
  EMAIL_MODE_LABELS,
  EMAIL_TEXTS,
  type EmailAvailability,
  type EmailFeedStatus,
  type EmailMode,
  type EmailSubscriberSummary,
  type EmailSubscription,
  type EmailUnsubscribed,
  emailModesOf,
} from "@curate/core";
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { emailSubscribers, emailSuppressions, feeds, type User } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed } from "../feeds/permissions.ts";
import { consumeLimit } from "../limits/service.ts";
import {
  addressHash,
  confirmTokenHash,
  emailKeysOf,
  linkToken,
  newConfirmToken,
  newSubscriberId,
  normalAddress,
  subscriberOfLinkToken,
} from "./keys.ts";
import { type Mailer, MailRefusedError } from "./mailer.ts";
import { personalize, renderConfirmMail, renderIssueMail } from "./template.ts";

/**
 * Subscriptions (issue 34, decision 0034): double opt-in, links that need no account, and the owner's view. The
 * address is read and written here and in delivery.ts only; everything else carries subscriber ids and counts.
 */

export interface EmailDeps {
  db: Database;
  env: AppEnv;
  /** The relay (or the development catch-all); null when email is off. */
  mailer: Mailer | null;
}

const HOUR = 60 * 60_000;

/** Counts a confirmation or an unsubscription on today's row of the feed's growth (in the caller's transaction). */
async function countToday(tx: Database, feedId: string, what: "confirmed" | "unsubscribed") {
  const column = what === "confirmed" ? sql`confirmed` : sql`unsubscribed`;
  await tx.execute(
    sql`insert into email_days (feed_id, day, ${column}) values (${feedId}, (now() at time zone 'utc')::date, 1)
      on conflict (feed_id, day) do update set ${column} = email_days.${column} + 1`,
  );
}

/** The feed's pages and the reader's link pages, on this deployment's public address. */
export const feedPageUrl = (env: Pick<AppEnv, "PUBLIC_URL">, feedId: string) =>
  `${env.PUBLIC_URL}/feed/${encodeURIComponent(feedId)}/content`;
export const confirmPageUrl = (env: Pick<AppEnv, "PUBLIC_URL">, token: string) =>
  `${env.PUBLIC_URL}/email/confirm?token=${token}`;
export const managePageUrl = (env: Pick<AppEnv, "PUBLIC_URL">, token: string) =>
  `${env.PUBLIC_URL}/email/manage?token=${token}`;
export const unsubscribePageUrl = (env: Pick<AppEnv, "PUBLIC_URL">, token: string) =>
  `${env.PUBLIC_URL}/email/unsubscribe?token=${token}`;
/** RFC 8058's one-click address (List-Unsubscribe): a POST there unsubscribes, a GET does nothing. */
export const oneClickUrl = (env: Pick<AppEnv, "PUBLIC_URL">, token: string) =>
  `${env.PUBLIC_URL}/api/email/one-click?token=${token}`;

function availabilityOf(env: AppEnv, modes: EmailMode[]): EmailAvailability {
  if (env.MAIL.kind === "off") return "smtp-off";
  return modes.length ? "on" : "feed-off";
}

async function feedRow(db: Database, feedId: string) {
  const [feed] = await db
    .select({ id: feeds.id, name: feeds.name, config: feeds.config })
    .from(feeds)
    .where(eq(feeds.id, feedId.toLowerCase()));
  return feed ?? null;
}

/** Whether readers can subscribe to the feed, and to what (the feed page's form reads it). */
export async function emailStatus(db: Database, env: AppEnv, feedId: string): Promise<EmailFeedStatus> {
  const feed = await feedRow(db, feedId);
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
  const modes = emailModesOf(feed.config);
  return { feedId: feed.id, feedName: feed.name, availability: availabilityOf(env, modes), modes };
}

async function limit(db: Database, key: string, max: number, message: string) {
  const result = await consumeLimit(db, key, max, HOUR);
  if (!result.allowed) {
    throw new AppError("RATE_LIMITED", message);
  }
}

/** Whether the relay refused this address for good, or its provider reported a bounce or complaint. */
async function suppressedEverywhere(db: Database, hash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: emailSuppressions.id })
    .from(emailSuppressions)
    .where(and(eq(emailSuppressions.addressHash, hash), isNull(emailSuppressions.feedId)))
    .limit(1);
  return row !== undefined;
}

/**
 * A reader asks for a feed by email: a confirmation mail with a single-use link that expires, and nothing else
 * until it is used. The answer is the same whether the address is new, waiting, already subscribed or suppressed,
 * so the form tells nobody who reads what; paced per client and per address (counted under its hash).
 */
export async function subscribe(
  deps: EmailDeps,
  request: { feedId: string; email: string; mode: EmailMode },
  client: string,
): Promise<{ message: string }> {
  const { db, env, mailer } = deps;
  const status = await emailStatus(db, env, request.feedId);
  if (status.availability === "smtp-off" || !mailer) throw AppError.conflict(EMAIL_TEXTS.smtpOff);
  if (status.availability === "feed-off") throw AppError.conflict(EMAIL_TEXTS.feedOff);
  if (!status.modes.includes(request.mode)) {
    throw AppError.validation("This feed does not offer that choice.", [
      {
        path: "mode",
        message: `Choose ${status.modes.map((mode) => EMAIL_MODE_LABELS[mode].toLowerCase()).join(" or ")}`,
      },
    ]);
  }
  const keys = await emailKeysOf(db);
  const address = normalAddress(request.email);
  const hash = addressHash(keys, address);
  await limit(
    db,
    `email-subscribe:client:${client}`,
    env.EMAIL_SUBSCRIBES_PER_CLIENT_PER_HOUR,
    "Too many subscription requests from this network. Please try again in an hour.",
  );
  await limit(
    db,
    `email-subscribe:address:${hash}`,
    env.EMAIL_SUBSCRIBES_PER_ADDRESS_PER_HOUR,
    "Too many subscription requests for this address. Please check your inbox, or try again in an hour.",
  );
  const answer = { message: EMAIL_TEXTS.checkInbox };
  if (await suppressedEverywhere(db, hash)) return answer;

  const { token, hash: tokenHash } = newConfirmToken();
  const expiresAt = new Date(Date.now() + EMAIL_LIMITS.confirmHours * HOUR);
  const waiting = await db.transaction(async (tx) => {
    // The cap is checked under the feed's row lock, so simultaneous requests cannot pass it together.
    await tx.execute(sql`select id from feeds where id = ${status.feedId} for update`);
    const [existing] = await tx
      .select({ id: emailSubscribers.id, status: emailSubscribers.status })
      .from(emailSubscribers)
      .where(and(eq(emailSubscribers.feedId, status.feedId), eq(emailSubscribers.address, address)));
    if (existing?.status === "confirmed") return false;
    if (existing) {
      await tx
        .update(emailSubscribers)
        .set({ mode: request.mode, confirmTokenHash: tokenHash, confirmExpiresAt: expiresAt })
        .where(eq(emailSubscribers.id, existing.id));
      return true;
    }
    const [{ total }] = await tx
      .select({ total: count() })
      .from(emailSubscribers)
      .where(eq(emailSubscribers.feedId, status.feedId));
    if (total >= env.EMAIL_SUBSCRIBERS_PER_FEED) {
      throw AppError.conflict(
        "This feed has as many subscribers as it may have; its owner can ask the operator for more.",
      );
    }
    await tx.insert(emailSubscribers).values({
      id: newSubscriberId(),
      feedId: status.feedId,
      address,
      mode: request.mode,
      confirmTokenHash: tokenHash,
      confirmExpiresAt: expiresAt,
    });
    return true;
  });
  if (!waiting) return answer;
  const mail = await renderConfirmMail({
    feedName: status.feedName,
    feedUrl: feedPageUrl(env, status.feedId),
    confirmUrl: confirmPageUrl(env, token),
    modeLabel: EMAIL_MODE_LABELS[request.mode],
    hours: EMAIL_LIMITS.confirmHours,
  });
  try {
    await mailer.send({ to: address, ...mail });
  } catch (error) {
    if (error instanceof MailRefusedError && error.details.permanent && error.details.rejectedRecipient) {
      // The relay will never take this address: forget it (only its salted hash stays, so no mail is tried again).
      await suppressAddress(db, address, "rejected");
      throw AppError.validation("The mail server refused this address. Check it and try again.", [
        { path: "email", message: "The mail server refused this address" },
      ]);
    }
    throw AppError.unavailable(
      "The confirmation mail could not be sent just now. Please try again in a few minutes.",
    );
  }
  return answer;
}

async function subscriptionAnswer(
  db: Database,
  row: { id: string; feedId: string; mode: EmailMode },
): Promise<EmailSubscription> {
  const feed = await feedRow(db, row.feedId);
  const keys = await emailKeysOf(db);
  return {
    feedId: row.feedId,
    feedName: feed?.name ?? row.feedId,
    mode: row.mode,
    modes: feed ? emailModesOf(feed.config) : [],
    manageToken: linkToken(keys, row.id),
  };
}

const CONFIRM_GONE =
  "This confirmation link has expired or was already used. Subscribe again on the feed's page for a new one.";

/** The confirmation page's POST: the token works once, before it expires; confirming lifts an earlier unsubscription. */
export async function confirmSubscription(db: Database, token: string): Promise<EmailSubscription> {
  const keys = await emailKeysOf(db);
  const confirmed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailSubscribers)
      .set({ status: "confirmed", confirmedAt: sql`now()`, confirmTokenHash: null, confirmExpiresAt: null })
      .where(
        and(
          eq(emailSubscribers.confirmTokenHash, confirmTokenHash(token)),
          gt(emailSubscribers.confirmExpiresAt, sql`now()`),
        ),
      )
      .returning({
        id: emailSubscribers.id,
        feedId: emailSubscribers.feedId,
        mode: emailSubscribers.mode,
        address: emailSubscribers.address,
      });
    if (!row) return null;
    await countToday(tx, row.feedId, "confirmed");
    await tx
      .delete(emailSuppressions)
      .where(
        and(
          eq(emailSuppressions.addressHash, addressHash(keys, row.address)),
          eq(emailSuppressions.feedId, row.feedId),
        ),
      );
    return row;
  });
  if (!confirmed) throw AppError.notFound(CONFIRM_GONE);
  return subscriptionAnswer(db, confirmed);
}

async function subscriberForLink(db: Database, token: string) {
  const keys = await emailKeysOf(db);
  const id = subscriberOfLinkToken(keys, token);
  if (!id) return null;
  const [row] = await db
    .select({ id: emailSubscribers.id, feedId: emailSubscribers.feedId, mode: emailSubscribers.mode })
    .from(emailSubscribers)
    .where(and(eq(emailSubscribers.id, id), eq(emailSubscribers.status, "confirmed")));
  return row ?? null;
}

const LINK_GONE = "This subscription no longer exists: it was cancelled, or the feed was deleted.";

/** The manage page: what the link's subscription is (never its address). */
export async function subscriptionOf(db: Database, token: string): Promise<EmailSubscription> {
  const row = await subscriberForLink(db, token);
  if (!row) throw AppError.notFound(LINK_GONE);
  return subscriptionAnswer(db, row);
}

/** The manage page's change of mode: only to what the feed offers now. */
export async function changeSubscriptionMode(
  db: Database,
  token: string,
  mode: EmailMode,
): Promise<EmailSubscription> {
  const row = await subscriberForLink(db, token);
  if (!row) throw AppError.notFound(LINK_GONE);
  const feed = await feedRow(db, row.feedId);
  if (!feed || !emailModesOf(feed.config).includes(mode)) {
    throw AppError.validation("This feed does not offer that choice.", [
      { path: "mode", message: "Not offered by this feed" },
    ]);
  }
  await db.update(emailSubscribers).set({ mode }).where(eq(emailSubscribers.id, row.id));
  return subscriptionAnswer(db, { ...row, mode });
}

/**
 * Unsubscribes the link's reader (the page's button and RFC 8058's one-click POST): the address is deleted, its
 * mails not sent yet with it, and the unsubscription is recorded as a salted hash. A second call finds nothing to do
 * and answers null.
 */
export async function unsubscribe(db: Database, token: string): Promise<EmailUnsubscribed | null> {
  const keys = await emailKeysOf(db);
  const id = subscriberOfLinkToken(keys, token);
  if (!id) throw AppError.notFound("This unsubscribe link is not valid.");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(emailSubscribers)
      .where(eq(emailSubscribers.id, id))
      .returning({ feedId: emailSubscribers.feedId, address: emailSubscribers.address });
    if (!row) return null;
    await countToday(tx, row.feedId, "unsubscribed");
    await tx
      .insert(emailSuppressions)
      .values({ addressHash: addressHash(keys, row.address), feedId: row.feedId, reason: "unsubscribed" });
    const [feed] = await tx.select({ name: feeds.name }).from(feeds).where(eq(feeds.id, row.feedId));
    return { feedId: row.feedId, feedName: feed?.name ?? row.feedId };
  });
}

/**
 * No mail to this address again, from any feed: the relay refused it for good, or its provider reported a bounce
 * or a complaint. Its subscriptions are deleted (their unsent mails with them); only the salted hash stays.
 */
export async function suppressAddress(
  db: Database,
  address: string,
  reason: "rejected" | "bounce" | "complaint",
): Promise<number> {
  const keys = await emailKeysOf(db);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(emailSubscribers)
      .where(eq(emailSubscribers.address, normalAddress(address)))
      .returning({ id: emailSubscribers.id });
    await tx
      .insert(emailSuppressions)
      .values({ addressHash: addressHash(keys, address), feedId: null, reason });
    return removed.length;
  });
}

/** The provider's webhook: a permanent bounce or a complaint suppresses; a soft bounce changes nothing. */
export async function reportMailEvent(
  db: Database,
  event: { type: "bounce" | "complaint"; email: string; permanent?: boolean },
): Promise<{ suppressed: boolean; subscriptionsRemoved: number }> {
  if (event.type === "bounce" && event.permanent === false)
    return { suppressed: false, subscriptionsRemoved: 0 };
  const removed = await suppressAddress(db, event.email, event.type);
  return { suppressed: true, subscriptionsRemoved: removed };
}

const GROWTH_DAYS = 30;

/** What the feed's owner sees: counts by state and mode, 30 days of growth, and what waits to be sent. */
export async function subscriberSummary(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
): Promise<EmailSubscriberSummary> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const feed = await feedRow(db, id);
  const modes = emailModesOf(feed?.config);
  const [totals] = await queryRows<{ confirmed: number; pending: number; every: number; digest: number }>(
    db,
    sql`select count(*) filter (where status = 'confirmed')::int as confirmed,
        count(*) filter (where status = 'pending')::int as pending,
        count(*) filter (where status = 'confirmed' and mode = 'every')::int as every,
        count(*) filter (where status = 'confirmed' and mode = 'digest')::int as digest
      from email_subscribers where feed_id = ${id}`,
  );
  const growth = await queryRows<{ day: string; confirmed: number; unsubscribed: number }>(
    db,
    sql`with days as (
        select generate_series((now() at time zone 'utc')::date - ${GROWTH_DAYS - 1}::int,
          (now() at time zone 'utc')::date, interval '1 day')::date as day
      )
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(g.confirmed, 0)::int as confirmed,
        coalesce(g.unsubscribed, 0)::int as unsubscribed
      from days d left join email_days g on g.feed_id = ${id} and g.day = d.day order by d.day`,
  );
  const [{ queued }] = await queryRows<{ queued: number }>(
    db,
    sql`select count(*)::int as queued from email_deliveries where feed_id = ${id} and status = 'pending'`,
  );
  return {
    availability: availabilityOf(env, modes),
    modes,
    confirmed: totals.confirmed,
    pending: totals.pending,
    byMode: { every: totals.every, digest: totals.digest },
    cap: env.EMAIL_SUBSCRIBERS_PER_FEED,
    growth,
    queued,
  };
}

/** A CSV field, quoted when it must be; a leading = + - @ is defused so a spreadsheet never runs it as a formula. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The owner's own list, confirmed subscribers first, as CSV (address, mode, status, dates). */
export async function exportSubscribers(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
): Promise<{ feedId: string; chunks: AsyncGenerator<string> }> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  return { feedId: id, chunks: subscriberCsv(db, id) };
}

async function* subscriberCsv(db: Database, id: string): AsyncGenerator<string> {
  yield "email,mode,status,subscribed_at,confirmed_at\n";
  const PAGE = 1000;
  for (let after = ""; ; ) {
    const rows = await db
      .select({
        address: emailSubscribers.address,
        mode: emailSubscribers.mode,
        status: emailSubscribers.status,
        createdAt: emailSubscribers.createdAt,
        confirmedAt: emailSubscribers.confirmedAt,
      })
      .from(emailSubscribers)
      .where(and(eq(emailSubscribers.feedId, id), gt(emailSubscribers.address, after)))
      .orderBy(emailSubscribers.address)
      .limit(PAGE);
    if (rows.length === 0) return;
    yield rows
      .map((row) =>
        [row.address, row.mode, row.status, row.createdAt.toISOString(), row.confirmedAt?.toISOString() ?? ""]
          .map(csvField)
          .join(","),
      )
      .join("\n")
      .concat("\n");
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].address;
  }
}

/**
 * The owner's "Send me a test": a sample issue to one address, paced per account. Its links lead to a page that
 * says the test has no subscription behind it.
 */
export async function sendTestMail(
  deps: EmailDeps,
  user: User,
  feedId: string,
  email: string,
): Promise<{ message: string }> {
  const { db, env, mailer } = deps;
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  if (!mailer) throw AppError.conflict(EMAIL_TEXTS.smtpOff);
  await limit(
    db,
    `email-test:${user.id}`,
    env.EMAIL_TESTS_PER_ACCOUNT_PER_HOUR,
    "Too many test mails this hour. Please try again later.",
  );
  const feed = await feedRow(db, id);
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
  const mail = await renderIssueMail({
    subject: `Test: ${feed.name}`,
    feedName: feed.name,
    feedUrl: feedPageUrl(env, feed.id),
    intro:
      "This is a test of how your feed's mails look. Readers' mails carry their own unsubscribe and manage links.",
    heading: null,
    entries: [
      {
        title: `A sample item from ${feed.name}`,
        body: "The text of an approved item appears here, with its author and a link to the original.",
        link: feedPageUrl(env, feed.id),
        author: user.nearAccountId,
        image: null,
      },
    ],
  });
  const links = { unsubscribe: feedPageUrl(env, feed.id), manage: feedPageUrl(env, feed.id) };
  try {
    await mailer.send({
      to: normalAddress(email),
      subject: mail.subject,
      html: personalize(mail.html, links),
      text: personalize(mail.text, links),
    });
  } catch {
    throw AppError.unavailable(
      "The test mail could not be sent just now. Please try again in a few minutes.",
    );
  }
  return { message: "Test mail sent. It may take a minute to arrive." };
}
