import {
  type Paged,
  QUEUE_REMINDER_DAILY_CAP,
  QUEUE_REMINDER_PERIOD_HOURS,
  type QueueReminder,
  type ReminderSettings,
  type ReminderSettingsUpdate,
} from "@curate/core";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Api } from "grammy";
import type { Logger } from "pino";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { queueReminderSubscriptions, queueReminders, type User, users } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { decideWithinHoursOf } from "./service.ts";

const HOUR = 3_600_000;

/** The Telegram chat of the user's linked Telegram account (a private chat's id is the user's id), or null. */
async function telegramChatOf(db: Database, userId: number): Promise<string | null> {
  const [row] = await queryRows<{ chat: string }>(
    db,
    sql`select platform_user_id as chat from linked_accounts
      where user_id = ${userId} and lower(platform_name) = 'telegram' order by updated_at desc limit 1`,
  );
  return row?.chat ?? null;
}

async function assertModerates(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  feedId: string,
  user: User,
) {
  const right = await moderationRight(db, env, feedId, user);
  if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
  if (!right.canModerate) throw AppError.forbidden(`You are not a moderator of "${feedId}".`);
}

async function settingsOf(db: Database, user: User, feedId: string): Promise<ReminderSettings> {
  const [[subscription], [feed], chat] = await Promise.all([
    db
      .select({ telegram: queueReminderSubscriptions.telegram })
      .from(queueReminderSubscriptions)
      .where(
        and(eq(queueReminderSubscriptions.userId, user.id), eq(queueReminderSubscriptions.feedId, feedId)),
      ),
    queryRows<{ config: Record<string, unknown> }>(db, sql`select config from feeds where id = ${feedId}`),
    telegramChatOf(db, user.id),
  ]);
  return {
    feedId,
    subscribed: Boolean(subscription),
    telegram: Boolean(subscription?.telegram),
    telegramAvailable: chat !== null,
    decideWithinHours: decideWithinHoursOf(feed?.config),
  };
}

/** Whether the session's approver is reminded about this feed's queue, and how. Moderators of the feed only. */
export async function getReminderSettings(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  feedId: string,
): Promise<ReminderSettings> {
  const id = feedId.toLowerCase();
  await assertModerates(db, env, id, user);
  return settingsOf(db, user, id);
}

/** Opts the session's approver in or out; Telegram copies need a linked Telegram account. */
export async function updateReminderSettings(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  feedId: string,
  update: ReminderSettingsUpdate,
): Promise<ReminderSettings> {
  const id = feedId.toLowerCase();
  await assertModerates(db, env, id, user);
  if (!update.subscribed) {
    await db
      .delete(queueReminderSubscriptions)
      .where(and(eq(queueReminderSubscriptions.userId, user.id), eq(queueReminderSubscriptions.feedId, id)));
    return settingsOf(db, user, id);
  }
  if (update.telegram && !(await telegramChatOf(db, user.id))) {
    throw AppError.validation("Link your Telegram account first (send !link with your code to the bot).", [
      { path: "telegram", message: "No Telegram account is linked to you" },
    ]);
  }
  await db
    .insert(queueReminderSubscriptions)
    .values({ userId: user.id, feedId: id, telegram: update.telegram })
    .onConflictDoUpdate({
      target: [queueReminderSubscriptions.userId, queueReminderSubscriptions.feedId],
      set: { telegram: update.telegram },
    });
  return settingsOf(db, user, id);
}

/** The session's reminders, newest first, a page at a time, with how many are unread. */
export async function listReminders(
  db: Database,
  user: User,
  query: { page: number; limit: number },
): Promise<Paged<QueueReminder> & { unreadCount: number }> {
  const [rows, [counts]] = await Promise.all([
    queryRows<QueueReminder>(
      db,
      sql`select id::int as id, feed_id as "feedId", submission_id as "submissionId",
          ${isoUtc("waiting_since")} as "waitingSince", ${isoUtc("created_at")} as "createdAt",
          case when read_at is null then null else ${isoUtc("read_at")} end as "readAt",
          telegram_status as "telegramStatus"
        from queue_reminders where user_id = ${user.id}
        order by created_at desc nulls last, id desc nulls last limit ${query.limit + 1} offset ${query.page * query.limit}`,
    ),
    queryRows<{ total: number; unread: number }>(
      db,
      sql`select count(*)::int as total, count(*) filter (where read_at is null)::int as unread
        from queue_reminders where user_id = ${user.id}`,
    ),
  ]);
  return {
    items: rows.slice(0, query.limit),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: rows.length > query.limit,
      totalCount: counts?.total ?? 0,
    },
    unreadCount: counts?.unread ?? 0,
  };
}

/** Marks the session's reminders read: the ones named, or all. Answers how many changed. */
export async function markRemindersRead(db: Database, user: User, ids?: number[]): Promise<number> {
  const changed = await db
    .update(queueReminders)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(queueReminders.userId, user.id),
        isNull(queueReminders.readAt),
        ids ? inArray(queueReminders.id, ids) : undefined,
      ),
    )
    .returning({ id: queueReminders.id });
  return changed.length;
}

export interface ReminderDeps {
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS" | "PUBLIC_URL">;
  /** The bot that sends Telegram copies (the intake bot), or null when none is configured. */
  telegram: Api | null;
  logger: Logger;
}

export interface ReminderPass {
  created: number;
  telegramSent: number;
  telegramFailed: number;
}

interface OverdueFeed {
  feedId: string;
  hours: number;
  submissionId: string;
  submittedAt: Date;
}

/** Feeds with a service level and someone to remind whose oldest pending post waited past it, most overdue first. */
async function overdueFeeds(db: Database, now: Date): Promise<OverdueFeed[]> {
  const feeds = await queryRows<{ id: string; config: Record<string, unknown> }>(
    db,
    sql`select f.id, f.config from feeds f
      where (f.config -> 'moderation' ->> 'decideWithinHours') is not null
        and exists (select 1 from queue_reminder_subscriptions s where s.feed_id = f.id)`,
  );
  const overdue: OverdueFeed[] = [];
  for (const feed of feeds) {
    const hours = decideWithinHoursOf(feed.config);
    if (!hours) continue;
    const [oldest] = await queryRows<{ id: string; at: string }>(
      db,
      sql`select submission_id as id, ${isoUtc("submitted_at")} as at from submission_feeds
        where feed_id = ${feed.id} and status = 'pending' order by submitted_at, submission_id limit 1`,
    );
    if (!oldest) continue;
    const submittedAt = new Date(oldest.at);
    if (submittedAt.getTime() > now.getTime() - hours * HOUR) continue;
    overdue.push({ feedId: feed.id, hours, submissionId: oldest.id, submittedAt });
  }
  return overdue.sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime());
}

/** The Telegram copy: plain text (nothing to escape), a link to the post, never a public reply. */
export function reminderText(feed: OverdueFeed, now: Date, publicUrl: string): string {
  const waited = Math.floor((now.getTime() - feed.submittedAt.getTime()) / HOUR);
  return `#${feed.feedId}: a post has waited ${waited} h for a decision (the feed aims for ${feed.hours} h).\n${publicUrl.replace(/\/+$/, "")}/submission/${encodeURIComponent(feed.submissionId)}`;
}

/**
 * One reminder pass (the worker runs it on a schedule): for each feed whose oldest pending post waited longer than
 * its service level, each approver who opted in and still moderates it gets an in-app reminder linking to that
 * post — at most once per QUEUE_REMINDER_PERIOD_HOURS per feed and QUEUE_REMINDER_DAILY_CAP in any 24 hours — and,
 * if they chose, the same by a Telegram message from the bot. The caps are checked and the reminder written under
 * the user's row lock, so two passes can never both remind.
 */
export async function sendQueueReminders(
  db: Database,
  deps: ReminderDeps,
  now = new Date(),
): Promise<ReminderPass> {
  const pass: ReminderPass = { created: 0, telegramSent: 0, telegramFailed: 0 };
  for (const feed of await overdueFeeds(db, now)) {
    const subscribers = await db
      .select({ user: users, telegram: queueReminderSubscriptions.telegram })
      .from(queueReminderSubscriptions)
      .innerJoin(users, eq(users.id, queueReminderSubscriptions.userId))
      .where(eq(queueReminderSubscriptions.feedId, feed.feedId))
      .orderBy(users.id);
    for (const { user, telegram } of subscribers) {
      const right = await moderationRight(db, deps.env, feed.feedId, user);
      if (!right?.canModerate) continue;
      const reminder = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from users where id = ${user.id} for update`);
        const [recent] = await queryRows<{ today: number; thisFeed: number }>(
          tx,
          sql`select count(*)::int as today,
              count(*) filter (where feed_id = ${feed.feedId}
                and created_at > ${new Date(now.getTime() - QUEUE_REMINDER_PERIOD_HOURS * HOUR)})::int as "thisFeed"
            from queue_reminders where user_id = ${user.id} and created_at > ${new Date(now.getTime() - 24 * HOUR)}`,
        );
        if (recent.thisFeed > 0 || recent.today >= QUEUE_REMINDER_DAILY_CAP) return null;
        const [row] = await tx
          .insert(queueReminders)
          .values({
            userId: user.id,
            feedId: feed.feedId,
            submissionId: feed.submissionId,
            waitingSince: feed.submittedAt,
            createdAt: now,
          })
          .returning({ id: queueReminders.id });
        return row;
      });
      if (!reminder) continue;
      pass.created++;
      if (!telegram || !deps.telegram) continue;
      const chat = await telegramChatOf(db, user.id);
      if (!chat) continue;
      let status: "sent" | "failed" = "sent";
      try {
        await deps.telegram.sendMessage(chat, reminderText(feed, now, deps.env.PUBLIC_URL), {
          link_preview_options: { is_disabled: true },
        });
        pass.telegramSent++;
      } catch (error) {
        // The in-app reminder stands; a Telegram outage or a chat that never started the bot is only recorded.
        status = "failed";
        pass.telegramFailed++;
        deps.logger.warn({ err: error, feedId: feed.feedId, userId: user.id }, "telegram reminder failed");
      }
      await db
        .update(queueReminders)
        .set({ telegramStatus: status })
        .where(eq(queueReminders.id, reminder.id));
    }
  }
  return pass;
}
