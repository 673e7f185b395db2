import { type ApproverOffer, type FeedConfig, splitHandleKey } from "@curate/core";
import { and, asc, eq, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { approverOffers, feeds } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed } from "../feeds/permissions.ts";
import { updateFeed } from "../feeds/service.ts";
import { logLater, withModerationLog } from "../moderation-log/journal.ts";

function toOffer(row: typeof approverOffers.$inferSelect): ApproverOffer {
  return {
    feedId: row.feedId,
    personKey: row.personKey,
    curator: row.curator,
    account: row.account,
    status: row.status,
    explanation: row.explanation,
    offeredAt: row.offeredAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy,
  };
}

/** Offers awaiting an answer come first, then the answered ones, newest first; the feed's owners see them. */
export async function listApproverOffers(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  feedId: string,
): Promise<{ items: ApproverOffer[] }> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const rows = await db
    .select()
    .from(approverOffers)
    .where(eq(approverOffers.feedId, id))
    .orderBy(
      sql`${approverOffers.status} <> 'offered'`,
      sql`coalesce(${approverOffers.decidedAt}, ${approverOffers.offeredAt}) desc`,
      asc(approverOffers.personKey),
    )
    // Only trusted curators over a higher bar are ever offered: a feed's list stays short.
    .limit(500);
  return { items: rows.map(toOffer) };
}

/** The feed's approver lists with one more: the curator's account (listed under any network, as DESIGN §4 allows), else their handle under its network. */
function withApprover(config: FeedConfig, offer: typeof approverOffers.$inferSelect): FeedConfig {
  const moderation = (config.moderation ?? {}) as Record<string, unknown>;
  const approvers = { ...((moderation.approvers ?? {}) as Record<string, string[]>) };
  const { platform, handle } = offer.account
    ? { platform: "twitter", handle: offer.account }
    : splitHandleKey(offer.handleKey ?? offer.curator);
  const listed = approvers[platform] ?? [];
  if (!listed.some((name) => name.replace(/^@+/, "").toLowerCase() === handle.toLowerCase())) {
    approvers[platform] = [...listed, handle];
  }
  return { ...config, moderation: { ...moderation, approvers } } as FeedConfig;
}

/**
 * An owner's answer to an offer. Confirming adds the curator to the feed's approvers in a save of the config (a
 * new version, logged as the approvers change it is) and records the answer in the same transaction; declining
 * changes nothing else. Either is an entry in the feed's moderation log. An offer already answered is a 409.
 */
export async function answerApproverOffer(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
  personKey: string,
  answer: "confirm" | "decline",
): Promise<ApproverOffer> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const [offer] = await db
    .select()
    .from(approverOffers)
    .where(and(eq(approverOffers.feedId, id), eq(approverOffers.personKey, personKey)));
  if (!offer) throw AppError.notFound(`No approver offer for "${personKey}" in "${id}".`);
  if (offer.status !== "offered") {
    throw AppError.conflict(`The offer to ${offer.curator} was already ${offer.status}.`);
  }
  const status = answer === "confirm" ? ("confirmed" as const) : ("declined" as const);
  const record = async (tx: Database) => {
    const [updated] = await tx
      .update(approverOffers)
      .set({ status, decidedAt: sql`now()`, decidedBy: user.nearAccountId })
      .where(
        and(
          eq(approverOffers.feedId, id),
          eq(approverOffers.personKey, personKey),
          eq(approverOffers.status, "offered"),
        ),
      )
      .returning();
    if (!updated) throw AppError.conflict(`The offer to ${offer.curator} was answered meanwhile.`);
    logLater(tx, [
      {
        feedId: id,
        action: status === "confirmed" ? "approver_confirmed" : "approver_declined",
        via: "app",
        actor: { account: user.nearAccountId, handle: null },
        details: { curator: offer.curator, explanation: offer.explanation },
      },
    ]);
    return updated;
  };
  if (status === "declined") {
    return toOffer(await withModerationLog(db, record));
  }
  const [feed] = await db.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, id));
  if (!feed) throw AppError.notFound(`Feed "${id}" not found.`);
  let confirmed: typeof approverOffers.$inferSelect | undefined;
  await updateFeed(db, env, user, id, withApprover(feed.config as FeedConfig, offer), {
    alongside: async (tx) => {
      confirmed = await record(tx);
    },
  });
  if (!confirmed) throw AppError.conflict(`The offer to ${offer.curator} could not be confirmed.`);
  return toOffer(confirmed);
}
