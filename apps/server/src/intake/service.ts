import {
  ALL_FEED_ID,
  canModerateFor,
  handleKey,
  listedHandles,
  moderatorReason,
  parseCommand,
} from "@curate/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { recordActivity } from "../activity/service.ts";
import type { Database } from "../db/index.ts";
import { feeds, sourceCursors, submissionFeeds, submissions } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { actorForHandle } from "../feeds/permissions.ts";
import { moderateLink } from "../moderation/service.ts";
import type { MentionSource, SocialPost } from "../sources/types.ts";
import { oldestFirst } from "../sources/types.ts";

const X = "twitter";

type FeedRow = Pick<typeof feeds.$inferSelect, "id" | "config" | "createdBy" | "admins">;

export interface IngestOutcome {
  submitted: Array<{ submissionId: string; feedId: string; status: "pending" | "approved" }>;
  moderated: Array<{ submissionId: string; feedId: string; status: "approved" | "rejected" }>;
  ignored?: string;
}

/** A post submitted by a source (feed search) rather than a curator's command. */
export interface SourceAttribution {
  sourceId: string;
  feedId: string;
}

async function ensureAllFeed(tx: Database) {
  await tx
    .insert(feeds)
    .values({
      id: ALL_FEED_ID,
      name: "All",
      description: "Submissions that name no feed.",
      config: { id: ALL_FEED_ID, name: "All", description: "Submissions that name no feed." },
    })
    .onConflictDoNothing();
}

async function storePost(
  tx: Database,
  post: SocialPost,
  curator: { id: string | null; username: string | null; tweetId: string | null; notes: string | null },
  at: Date,
) {
  await tx
    .insert(submissions)
    .values({
      tweetId: post.id,
      userId: post.authorId,
      username: post.authorUsername,
      authorProfileImage: post.authorProfileImage ?? null,
      content: post.text,
      url: post.url,
      curatorId: curator.id,
      curatorUsername: curator.username,
      curatorNotes: curator.notes,
      curatorTweetId: curator.tweetId,
      createdAt: post.createdAt,
      submittedAt: at,
    })
    .onConflictDoNothing({ target: submissions.tweetId });
}

/** Links the post to one feed unless already there; returns whether a new link was made. */
async function linkToFeed(
  tx: Database,
  post: SocialPost,
  feedId: string,
  curator: { id: string | null; username: string | null; tweetId: string | null; notes: string | null },
  at: Date,
): Promise<boolean> {
  const inserted = await tx
    .insert(submissionFeeds)
    .values({
      submissionId: post.id,
      feedId,
      status: "pending",
      curatorId: curator.id,
      curatorUsername: curator.username,
      curatorNotes: curator.notes,
      curatorTweetId: curator.tweetId,
      submittedAt: at,
    })
    .onConflictDoNothing()
    .returning({ feedId: submissionFeeds.feedId });
  if (inserted.length === 0) return false;
  await recordActivity(tx, {
    userId: curator.username ?? curator.id ?? "unknown",
    type: "CONTENT_SUBMISSION",
    feedId,
    submissionId: post.id,
    data: { curatorTweetId: curator.tweetId, notes: curator.notes },
  });
  return true;
}

async function handleSubmit(
  tx: Database,
  mention: SocialPost,
  feedIds: string[],
  note: string | null,
): Promise<IngestOutcome> {
  const target = mention.inReplyToId ? mention.repliedTo : mention;
  if (!target) return { submitted: [], moderated: [], ignored: "the replied-to post is unavailable" };

  if (feedIds.length === 0) await ensureAllFeed(tx);
  const candidates: FeedRow[] = await tx
    .select({ id: feeds.id, config: feeds.config, createdBy: feeds.createdBy, admins: feeds.admins })
    .from(feeds)
    .where(feedIds.length === 0 ? eq(feeds.id, ALL_FEED_ID) : inArray(feeds.id, feedIds));
  const curatorHandle = handleKey(mention.authorUsername);
  const allowed = candidates.filter((feed) => !listedHandles(feed.config, "blacklist", X).has(curatorHandle));
  if (allowed.length === 0) {
    return {
      submitted: [],
      moderated: [],
      ignored: candidates.length ? "curator is blacklisted" : "no such feed",
    };
  }

  const curator = {
    id: mention.authorId,
    username: mention.authorUsername,
    tweetId: mention.id,
    notes: note,
  };
  const at = mention.createdAt;
  await storePost(tx, target, curator, at);
  const outcome: IngestOutcome = { submitted: [], moderated: [] };
  const curatorActor = await actorForHandle(tx, { platform: X, handle: mention.authorUsername });
  for (const feed of allowed) {
    if (!(await linkToFeed(tx, target, feed.id, curator, at))) continue;
    if (canModerateFor(moderatorReason(feed, curatorActor))) {
      await moderateLink(tx, {
        submissionId: target.id,
        feedId: feed.id,
        action: "approve",
        moderatorAccountId: mention.authorUsername,
        moderatorAccountIdType: "platform_username",
        source: "auto_approval",
      });
      outcome.submitted.push({ submissionId: target.id, feedId: feed.id, status: "approved" });
    } else {
      outcome.submitted.push({ submissionId: target.id, feedId: feed.id, status: "pending" });
    }
  }
  return outcome;
}

/** `!approve` / `!reject` replying to a curator's submit post, by an approver of the feed. */
async function handleModerationReply(
  tx: Database,
  reply: SocialPost,
  action: "approve" | "reject",
  feedIds: string[],
  note: string | null,
): Promise<IngestOutcome> {
  if (!reply.inReplyToId) return { submitted: [], moderated: [], ignored: "not a reply" };
  const conditions = [
    eq(submissionFeeds.curatorTweetId, reply.inReplyToId),
    eq(submissionFeeds.status, "pending"),
  ];
  if (feedIds.length) conditions.push(inArray(submissionFeeds.feedId, feedIds));
  const links = await tx
    .select({
      submissionId: submissionFeeds.submissionId,
      feedId: submissionFeeds.feedId,
      config: feeds.config,
      createdBy: feeds.createdBy,
      admins: feeds.admins,
    })
    .from(submissionFeeds)
    .innerJoin(feeds, eq(feeds.id, submissionFeeds.feedId))
    .where(and(...conditions));
  const outcome: IngestOutcome = { submitted: [], moderated: [] };
  const moderator = links.length
    ? await actorForHandle(tx, { platform: X, handle: reply.authorUsername })
    : {};
  for (const link of links) {
    if (!canModerateFor(moderatorReason(link, moderator))) continue;
    const result = await moderateLink(tx, {
      submissionId: link.submissionId,
      feedId: link.feedId,
      action,
      note,
      moderatorAccountId: reply.authorUsername,
      moderatorAccountIdType: "platform_username",
      source: "platform_comment",
    });
    outcome.moderated.push({ submissionId: link.submissionId, feedId: link.feedId, status: result.status });
  }
  if (outcome.moderated.length === 0) outcome.ignored = "nothing this author may moderate";
  return outcome;
}

/**
 * Applies one mention in its own transaction. Everything is keyed by post id and conditional, so reading
 * the same mention again stores nothing twice.
 */
export async function ingestMention(
  db: Database,
  botHandle: string,
  mention: SocialPost,
): Promise<IngestOutcome> {
  const command = parseCommand(mention.text, botHandle);
  if (!command) return { submitted: [], moderated: [], ignored: "no command" };
  return db.transaction(async (tx) => {
    if (command.kind === "submit") return handleSubmit(tx, mention, command.feedIds, command.note);
    return handleModerationReply(tx, mention, command.kind, command.feedIds, command.note);
  });
}

/** Stores a post a feed source found, as a pending submission attributed to that source. */
export async function ingestSourcePost(db: Database, post: SocialPost, attribution: SourceAttribution) {
  return db.transaction(async (tx) => {
    const curator = { id: `source:${attribution.sourceId}`, username: null, tweetId: null, notes: null };
    await storePost(tx, post, curator, new Date());
    return linkToFeed(tx, post, attribution.feedId, curator, new Date());
  });
}

export async function readCursor(db: Database, key: string): Promise<string | null> {
  const [row] = await db.select().from(sourceCursors).where(eq(sourceCursors.sourceKey, key));
  return row?.cursor ?? null;
}

export async function saveCursor(db: Database, key: string, cursor: string) {
  await db
    .insert(sourceCursors)
    .values({ sourceKey: key, cursor })
    .onConflictDoUpdate({ target: sourceCursors.sourceKey, set: { cursor, updatedAt: sql`now()` } });
}

export interface IntakeRun {
  read: number;
  submitted: number;
  moderated: number;
}

/**
 * One intake pass: every mention since the saved cursor, applied oldest first; the cursor moves only
 * after all of them are stored, so a crash re-reads (harmlessly) instead of losing mentions.
 */
export async function runMentionIntake(
  db: Database,
  botHandle: string,
  source: MentionSource,
  logger?: Logger,
): Promise<IntakeRun> {
  const { posts, cursor } = await source.fetchMentions(await readCursor(db, source.key));
  const run: IntakeRun = { read: posts.length, submitted: 0, moderated: 0 };
  for (const mention of oldestFirst(posts)) {
    try {
      const outcome = await ingestMention(db, botHandle, mention);
      run.submitted += outcome.submitted.length;
      run.moderated += outcome.moderated.length;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      logger?.debug({ mention: mention.id, reason: error.message }, "mention skipped");
    }
  }
  if (cursor) await saveCursor(db, source.key, cursor);
  return run;
}
