import { and, eq, inArray, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { emailDeliveries, emailIssues, emailSubscribers } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { emailKeysOf, linkToken } from "./keys.ts";
import { type Mailer, MailRefusedError } from "./mailer.ts";
import { managePageUrl, oneClickUrl, suppressAddress, unsubscribePageUrl } from "./service.ts";
import { personalize } from "./template.ts";

/**
 * Sending (decision 0034). A distribution step queues an issue: the rendered mail once, and one delivery row per
 * (issue, subscriber) of its audience, written in one statement that copies subscriber ids, never addresses. Delivery
 * passes run on the workers: each takes one batch per feed, so a feed of 50,000 readers shares the relay with the
 * others, and paces the whole pass to the relay's rate. A delivery is claimed as `sending` in its own commit before
 * the relay is asked, so a worker killed mid-batch leaves it so and no one mails that reader that issue twice.
 */

export interface QueuedIssue {
  issueId: string;
  recipients: number;
}

/** Queues an issue for the feed's confirmed subscribers of `audience`; a second call with the same key finds the first. */
export async function queueIssue(
  db: Database,
  issue: {
    id: string;
    feedId: string;
    jobId: string | null;
    idempotencyKey: string;
    audience: "every" | "digest";
    subject: string;
    html: string;
    text: string;
  },
): Promise<QueuedIssue> {
  return db.transaction(async (tx) => {
    const [made] = await tx
      .insert(emailIssues)
      .values({ ...issue, recipients: 0 })
      .onConflictDoNothing({ target: emailIssues.idempotencyKey })
      .returning({ id: emailIssues.id });
    if (!made) {
      const [earlier] = await tx
        .select({ id: emailIssues.id, recipients: emailIssues.recipients })
        .from(emailIssues)
        .where(eq(emailIssues.idempotencyKey, issue.idempotencyKey));
      return { issueId: earlier.id, recipients: earlier.recipients };
    }
    const [{ recipients }] = await queryRows<{ recipients: number }>(
      tx,
      sql`with queued as (
          insert into email_deliveries (issue_id, subscriber_id, feed_id)
          select ${made.id}, id, feed_id from email_subscribers
          where feed_id = ${issue.feedId} and status = 'confirmed' and mode = ${issue.audience}
          returning 1
        ) select count(*)::int as recipients from queued`,
    );
    await tx.update(emailIssues).set({ recipients }).where(eq(emailIssues.id, made.id));
    return { issueId: made.id, recipients };
  });
}

/** A retraction: the issue's mails not handed to the relay yet are cancelled; sent ones cannot be taken back. */
export async function cancelIssue(
  db: Database,
  issueId: string,
): Promise<{ cancelled: number; sent: number }> {
  return db.transaction(async (tx) => {
    const cancelled = await tx
      .update(emailDeliveries)
      .set({ status: "cancelled", updatedAt: sql`now()` })
      .where(and(eq(emailDeliveries.issueId, issueId), eq(emailDeliveries.status, "pending")))
      .returning({ subscriberId: emailDeliveries.subscriberId });
    await tx.update(emailIssues).set({ cancelledAt: sql`now()` }).where(eq(emailIssues.id, issueId));
    const [{ sent }] = await queryRows<{ sent: number }>(
      tx,
      sql`select count(*)::int as sent from email_deliveries where issue_id = ${issueId} and status in ('sent', 'sending')`,
    );
    return { cancelled: cancelled.length, sent };
  });
}

export interface DeliveryPass {
  sent: number;
  failed: number;
  /** Addresses the relay refused for good: suppressed, their subscriptions deleted. */
  suppressed: number;
  /** Deliveries put back for a later pass (the relay said "later", or could not be reached). */
  deferred: number;
}

export interface DeliveryDeps {
  db: Database;
  env: Pick<AppEnv, "PUBLIC_URL" | "EMAIL_BATCH_SIZE" | "EMAIL_SENDS_PER_SECOND">;
  mailer: Mailer;
  logger: Logger;
  /** Tried this often, a delivery the relay keeps deferring fails. */
  maxAttempts?: number;
}

const IN_FLIGHT = 3;

interface Claimed {
  issueId: string;
  subscriberId: string;
  attempts: number;
}

/** Claims up to `size` of the feed's waiting deliveries, oldest issue first, committed before anything is sent. */
async function claimBatch(db: Database, feedId: string, size: number): Promise<Claimed[]> {
  return queryRows<Claimed>(
    db,
    sql`update email_deliveries d set status = 'sending', attempts = d.attempts + 1, updated_at = now()
      where (d.issue_id, d.subscriber_id) in (
        select e.issue_id, e.subscriber_id from email_deliveries e join email_issues i on i.id = e.issue_id
        where e.feed_id = ${feedId} and e.status = 'pending'
        order by i.created_at, e.subscriber_id limit ${size}
        for update of e skip locked
      )
      returning d.issue_id as "issueId", d.subscriber_id as "subscriberId", d.attempts`,
  );
}

/** Waits for the next send the relay's rate allows. */
function pacer(perSecond: number) {
  const gapMs = 1000 / perSecond;
  let next = performance.now();
  return async () => {
    const now = performance.now();
    if (next > now) await new Promise((resolve) => setTimeout(resolve, next - now));
    next = Math.max(now, next) + gapMs;
  };
}

/**
 * One delivery pass: a batch of each feed with waiting mails, paced to EMAIL_SENDS_PER_SECOND. Answers what
 * became of them. The relay being unreachable ends the pass with the batch put back.
 */
export async function deliverPending(deps: DeliveryDeps): Promise<DeliveryPass> {
  const { db, env, mailer, logger } = deps;
  const maxAttempts = deps.maxAttempts ?? 5;
  const pass: DeliveryPass = { sent: 0, failed: 0, suppressed: 0, deferred: 0 };
  const waiting = await queryRows<{ feedId: string }>(
    db,
    sql`select distinct feed_id as "feedId" from email_deliveries where status = 'pending'`,
  );
  const keys = await emailKeysOf(db);
  const pace = pacer(env.EMAIL_SENDS_PER_SECOND);
  for (const { feedId } of waiting) {
    const batch = await claimBatch(db, feedId, env.EMAIL_BATCH_SIZE);
    if (batch.length === 0) continue;
    const issueIds = [...new Set(batch.map((row) => row.issueId))];
    const issues = new Map(
      (await db.select().from(emailIssues).where(inArray(emailIssues.id, issueIds))).map((issue) => [
        issue.id,
        issue,
      ]),
    );
    const addresses = new Map(
      (
        await db
          .select({ id: emailSubscribers.id, address: emailSubscribers.address })
          .from(emailSubscribers)
          .where(
            inArray(
              emailSubscribers.id,
              batch.map((row) => row.subscriberId),
            ),
          )
      ).map((row) => [row.id, row.address]),
    );
    const outcome = {
      sent: [] as Claimed[],
      failed: [] as Array<Claimed & { error: string }>,
      deferred: [] as Claimed[],
    };
    let unreachable = false;
    const host = new URL(env.PUBLIC_URL).hostname;
    const sendOne = async (row: Claimed) => {
      const issue = issues.get(row.issueId);
      const address = addresses.get(row.subscriberId);
      // Unsubscribed (or the feed deleted) since the claim: the row went with the subscriber.
      if (!issue || !address) return;
      if (unreachable) {
        outcome.deferred.push(row);
        return;
      }
      const token = linkToken(keys, row.subscriberId);
      const links = { unsubscribe: unsubscribePageUrl(env, token), manage: managePageUrl(env, token) };
      await pace();
      try {
        await mailer.send({
          to: address,
          subject: issue.subject,
          html: personalize(issue.html, links),
          text: personalize(issue.text, links),
          headers: {
            "List-Unsubscribe": `<${oneClickUrl(env, token)}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            // The feed's id only: a display name would be MIME-encoded, and mail filters match on the id.
            "List-Id": `<${feedId}.feeds.${host}>`,
          },
        });
        outcome.sent.push(row);
      } catch (error) {
        if (!(error instanceof MailRefusedError)) {
          outcome.failed.push({ ...row, error: "error: the mail could not be handed to the relay" });
          return;
        }
        const { permanent, rejectedRecipient, notSent } = error.details;
        if (permanent && rejectedRecipient) {
          await suppressAddress(db, address, "rejected");
          pass.suppressed++;
        } else if (notSent && !permanent && row.attempts < maxAttempts) {
          if (error.details.unreachable) unreachable = true;
          outcome.deferred.push(row);
        } else {
          // Refused for good, or the connection broke while the message was going out: it may have arrived, so
          // it is not sent again.
          outcome.failed.push({ ...row, error: error.message });
        }
      }
    };
    for (let at = 0; at < batch.length; at += IN_FLIGHT) {
      await Promise.all(batch.slice(at, at + IN_FLIGHT).map(sendOne));
    }
    await recordOutcome(db, outcome);
    pass.sent += outcome.sent.length;
    pass.failed += outcome.failed.length;
    pass.deferred += outcome.deferred.length;
    if (unreachable) {
      logger.warn(
        { feedId, deferred: outcome.deferred.length },
        "mail relay unreachable; deliveries put back",
      );
      break;
    }
  }
  return pass;
}

/** A text[] literal of bound parameters (drizzle spreads a bare array into a list). */
const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;

async function recordOutcome(
  db: Database,
  outcome: { sent: Claimed[]; failed: Array<Claimed & { error: string }>; deferred: Claimed[] },
) {
  const mark = async (rows: Claimed[], status: "sent" | "pending") => {
    if (rows.length === 0) return;
    const issues = textArray(rows.map((row) => row.issueId));
    const subscribers = textArray(rows.map((row) => row.subscriberId));
    await db.execute(
      sql`update email_deliveries d set status = ${status}, updated_at = now()
        from unnest(${issues}, ${subscribers}) as k(issue_id, subscriber_id)
        where d.issue_id = k.issue_id and d.subscriber_id = k.subscriber_id`,
    );
  };
  await mark(outcome.sent, "sent");
  await mark(outcome.deferred, "pending");
  for (const row of outcome.failed) {
    await db
      .update(emailDeliveries)
      .set({ status: "failed", error: row.error, updatedAt: sql`now()` })
      .where(
        and(eq(emailDeliveries.issueId, row.issueId), eq(emailDeliveries.subscriberId, row.subscriberId)),
      );
  }
}
