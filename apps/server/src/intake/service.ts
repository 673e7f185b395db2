import {
  ALL_FEED_ID,
  canModerateFor,
  canonicalPostUrl,
  decidesByVotes,
  handleKey,
  handleOnPlatform,
  listedHandles,
  type ModerationActor,
  moderatorReason,
  type NamedPost,
  namedPostsIn,
  type Platform,
  parseCommand,
  quorumPolicyOf,
  submissionKey,
} from "@curate/core";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { recordActivity } from "../activity/service.ts";
import { bulkInsert } from "../db/bulk-insert.ts";
import type { Database } from "../db/index.ts";
import { activities, feeds, sourceCursors, submissionFeeds, submissions } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { actorsForHandles } from "../feeds/permissions.ts";
import { isTrustedCurator } from "../governance/trust.ts";
import { type ModerationInput, moderateLinks } from "../moderation/service.ts";
import { type LogDraft, logLater, withModerationLog } from "../moderation-log/journal.ts";
import { mentionNetwork } from "../operations/intake-sources.ts";
import { requestAcknowledgement } from "../processing/acknowledgements.ts";
import type { MentionSource, SocialPost } from "../sources/types.ts";
import { commandText, oldestFirst } from "../sources/types.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import { redeemLinkCode } from "../users/link-codes.ts";

/** How a source's posts are read for commands: the bot's handle there, and whether a command must name it. */
export interface CommandGrammar {
  botHandle: string;
  mentionOptional?: boolean;
}

/**
 * A post with its ids as rows store them (`submissionKey`: X's bare ids, `<platform>:<id>` elsewhere), so a reply
 * on one network never answers a post of another that happens to share its id.
 */
function keyed(post: SocialPost): SocialPost {
  return {
    ...post,
    id: submissionKey(post.platform, post.id),
    inReplyToId: post.inReplyToId ? submissionKey(post.platform, post.inReplyToId) : null,
    repliedTo: post.repliedTo ? keyed(post.repliedTo) : null,
  };
}

/** The key a curator or approver is counted under: two people with one name on two networks stay two. */
function authorKey(post: SocialPost): string {
  return handleOnPlatform(post.platform, post.authorUsername);
}

type Curator = { id: string | null; username: string | null; tweetId: string | null; notes: string | null };
type FeedRow = Pick<typeof feeds.$inferSelect, "id" | "config" | "createdBy" | "admins">;

export interface IngestOutcome {
  submitted: Array<{ submissionId: string; feedId: string; status: "pending" | "approved" }>;
  /** Decisions made; pending: a vote counted in a quorum feed, the post waits for more. */
  moderated: Array<{ submissionId: string; feedId: string; status: "approved" | "rejected" | "pending" }>;
  /** The user a `!link <code>` post linked its author's handle to. */
  linkedTo?: number;
  ignored?: string;
}

/** `!link <code>`: the post's author proves the handle is theirs by posting the code a signed-in user got. */
async function handleLink(tx: Database, post: SocialPost, code: string, outcome: IngestOutcome) {
  const userId = await redeemLinkCode(tx, code, {
    platform: post.platform,
    platformUserId: post.authorId,
    username: post.authorUsername,
    profileImage: post.authorProfileImage,
  });
  if (userId === null) outcome.ignored = "unknown or expired link code";
  else outcome.linkedTo = userId;
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

function postRow(post: SocialPost, curator: Curator, at: Date): typeof submissions.$inferInsert {
  return {
    tweetId: post.id,
    platform: post.platform,
    userId: post.authorId,
    username: post.authorUsername,
    authorDisplayName: post.authorDisplayName ?? null,
    authorProfileImage: post.authorProfileImage ?? null,
    content: post.text,
    // A post with no public address (a private Telegram chat) has none: "" would look like one to the web.
    url: post.url ? canonicalPostUrl(post.url) : null,
    media: post.media?.length ? post.media : null,
    curatorId: curator.id,
    curatorUsername: curator.username,
    curatorNotes: curator.notes,
    curatorTweetId: curator.tweetId,
    createdAt: post.createdAt,
    submittedAt: at,
  };
}

/** A batch's posts; one already stored (another feed's, or a repeat) stays as it is. */
function insertPosts(tx: Database, rows: Array<typeof submissions.$inferInsert>) {
  return tx.execute(sql`${bulkInsert(submissions, rows)} on conflict (tweet_id) do nothing`);
}

/** A batch's links to feeds, answering those that are new (a link already made stays as it is). */
function insertLinks(tx: Database, rows: Array<typeof submissionFeeds.$inferInsert>) {
  return queryRows<{ submissionId: string; feedId: string }>(
    tx,
    sql`${bulkInsert(submissionFeeds, rows)} on conflict do nothing
      returning submission_id as "submissionId", feed_id as "feedId"`,
  );
}

function linkRow(
  post: SocialPost,
  feedId: string,
  curator: Curator,
  at: Date,
): typeof submissionFeeds.$inferInsert {
  return {
    submissionId: post.id,
    feedId,
    status: "pending",
    curatorId: curator.id,
    curatorUsername: curator.username,
    curatorNotes: curator.notes,
    curatorTweetId: curator.tweetId,
    submittedAt: at,
  };
}

function submissionActivity(
  post: SocialPost,
  feedId: string,
  curator: Curator,
): Parameters<typeof recordActivity>[1] {
  return {
    userId: curator.username ?? curator.id ?? "unknown",
    type: "CONTENT_SUBMISSION",
    feedId,
    submissionId: post.id,
    data: { curatorTweetId: curator.tweetId, notes: curator.notes },
  };
}

/** A submission as its feed's moderation log records it: the curator's handle on the network it came from. */
function submissionDraft(
  post: SocialPost,
  feedId: string,
  mention: SocialPost,
  curator: Curator,
  account: string | null | undefined,
): LogDraft {
  return {
    feedId,
    action: "submit",
    via: "reply",
    network: mention.platform,
    actor: { account: account ?? null, handle: mention.authorUsername },
    item: post.id,
    note: curator.notes,
  };
}

/** "Submitted to #feed" under the curator's post, when the feed asks for it on that network. */
async function acknowledgeSubmission(
  tx: Database,
  submissionId: string,
  feed: FeedRow,
  curatorPostKey: string,
) {
  await requestAcknowledgement(tx, {
    submissionId,
    feedId: feed.id,
    kind: "submitted",
    config: feed.config,
    curatorPostKey,
  });
}

function feedIsEnabled(config: unknown): boolean {
  return !(config && typeof config === "object" && (config as { enabled?: unknown }).enabled === false);
}

/** Posts a decision names by their address, at most a few per command (a decision names what it decides). */
const MAX_NAMED_POSTS = 5;
const namedPosts = (text: string) => namedPostsIn(text, MAX_NAMED_POSTS);

/**
 * The pending links `!approve` / `!reject` posts may decide: those whose curator's submit post they reply to, and
 * those whose post they name by its address — which lets an approver decide from any network, say on Mastodon
 * about a post submitted on Bluesky.
 */
async function pendingLinksAnswered(tx: Database, replies: readonly SocialPost[]) {
  const answered = [...new Set(replies.flatMap((reply) => reply.inReplyToId ?? []))];
  const named = replies.flatMap((reply) => namedPosts(commandText(reply)));
  // The rebuilt address is how intake stores a post's; the address as written finds rows stored before it did.
  const addresses = [...new Set(named.flatMap((post) => [post.url, post.written]))];
  const keys = [...new Set(named.flatMap((post) => post.key ?? []))];
  if (answered.length === 0 && addresses.length === 0) return [];
  const select = (answer: SQL) =>
    tx
      .select({
        submissionId: submissionFeeds.submissionId,
        feedId: submissionFeeds.feedId,
        curatorTweetId: submissionFeeds.curatorTweetId,
        url: submissions.url,
        status: submissionFeeds.status,
        config: feeds.config,
        createdBy: feeds.createdBy,
        admins: feeds.admins,
      })
      .from(submissionFeeds)
      .innerJoin(feeds, eq(feeds.id, submissionFeeds.feedId))
      .innerJoin(submissions, eq(submissions.tweetId, submissionFeeds.submissionId))
      .where(and(answer, eq(submissionFeeds.status, "pending")));
  // A lookup per index rather than one OR across the join that no index can answer.
  const found = [
    ...(answered.length ? await select(inArray(submissionFeeds.curatorTweetId, answered)) : []),
    ...(addresses.length ? await select(inArray(submissions.url, addresses)) : []),
    ...(keys.length ? await select(inArray(submissionFeeds.submissionId, keys)) : []),
  ];
  const seen = new Set<string>();
  return found.filter((link) => {
    const key = `${link.submissionId}\u0000${link.feedId}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

type AnsweredLink = Awaited<ReturnType<typeof pendingLinksAnswered>>[number];

/** Whether an address names this link's post: by its key, or by its address as stored (rebuilt or as written). */
function names(post: NamedPost, link: AnsweredLink): boolean {
  return (
    post.key === link.submissionId ||
    (link.url !== null && (post.url === link.url || post.written === link.url))
  );
}

/** Whether a decision post is about this link: it replies to the curator's post or names the post's address. */
function answers(reply: SocialPost, named: readonly NamedPost[], link: AnsweredLink): boolean {
  if (reply.inReplyToId && link.curatorTweetId === reply.inReplyToId) return true;
  return named.some((post) => names(post, link));
}

/**
 * The decision's note without the addresses that named the posts it decides (they say which posts, not why), nor
 * the punctuation the sentence put right after them.
 */
function withoutAddresses(note: string | null, named: readonly NamedPost[]): string | null {
  let rest = note ?? "";
  for (const post of named) {
    for (let at = rest.indexOf(post.written); at >= 0; at = rest.indexOf(post.written, at + 1)) {
      let end = at + post.written.length;
      while (end < rest.length && ".,;:!?…".includes(rest[end])) end++;
      // Only the address itself, not the start of a longer one.
      if (end < rest.length && !/\s/.test(rest[end])) continue;
      rest = `${rest.slice(0, at)} ${rest.slice(end)}`;
    }
  }
  return rest.replace(/\s+/g, " ").trim() || null;
}

interface DecisionPost {
  reply: SocialPost;
  action: "approve" | "reject";
  feedIds: string[];
  note: string | null;
  outcome: IngestOutcome;
}

/** Applies decision posts in order: a decision earlier in the list takes its link out of pending for the rest. */
async function decideAnswered(tx: Database, decisions: readonly DecisionPost[]) {
  const pending = await pendingLinksAnswered(
    tx,
    decisions.map(({ reply }) => reply),
  );
  const moderators = pending.length
    ? await actorsForPosts(
        tx,
        decisions.map(({ reply }) => reply),
      )
    : new Map<string, ModerationActor>();
  const planned: Array<{ outcome: IngestOutcome; input: ModerationInput }> = [];
  for (const { reply, action, feedIds, note, outcome } of decisions) {
    const named = namedPosts(commandText(reply));
    if (!reply.inReplyToId && named.length === 0) {
      outcome.ignored = "not a reply";
      continue;
    }
    const moderator = moderators.get(actorKey(reply)) ?? {};
    const answered = pending.filter((link) => answers(reply, named, link));
    const decisionNote = withoutAddresses(
      note,
      named.filter((post) => answered.some((link) => names(post, link))),
    );
    for (const link of answered) {
      if (link.status !== "pending") continue;
      if (feedIds.length && !feedIds.includes(link.feedId)) continue;
      if (!canModerateFor(moderatorReason(link, moderator))) continue;
      // A quorum feed takes every approver's vote; the votes decide when the post is settled.
      if (!decidesByVotes(quorumPolicyOf(link.config)))
        link.status = action === "approve" ? "approved" : "rejected";
      planned.push({
        outcome,
        input: {
          submissionId: link.submissionId,
          feedId: link.feedId,
          action,
          note: decisionNote,
          moderatorAccountId: authorKey(reply),
          moderatorAccountIdType: "platform_username",
          source: "platform_comment",
          origin: { account: moderator.nearAccountId ?? null },
        },
      });
    }
  }
  // Applied together: a link decided on the web meanwhile is left as it is, and not reported as decided here.
  const results = await moderateLinks(
    tx,
    planned.map(({ input }) => input),
  );
  for (const [index, result] of results.entries()) {
    if (!result) continue;
    planned[index].outcome.moderated.push({
      submissionId: result.submissionId,
      feedId: result.feedId,
      status: result.status,
    });
  }
  for (const { outcome } of decisions) {
    if (!outcome.ignored && outcome.moderated.length === 0)
      outcome.ignored = "nothing this author may moderate";
  }
}

/**
 * Applies one mention in its own transaction: a batch of one, so one mention and a page of them follow the same
 * rules. Everything is keyed by post id and conditional, so reading the same mention again stores nothing twice.
 */
export async function ingestMention(
  db: Database,
  grammar: CommandGrammar,
  post: SocialPost,
): Promise<IngestOutcome> {
  const [outcome] = await ingestMentionBatch(db, grammar, [post]);
  return outcome;
}

/**
 * Stores what one feed search found as pending submissions attributed to that search, in one transaction: one
 * multi-row insert each for the posts, their links and the new links' activities. A post or link already stored is
 * left alone, so reading the same items again stores nothing. Returns how many new links were made.
 */
export async function ingestSourcePosts(
  db: Database,
  found: readonly SocialPost[],
  attribution: SourceAttribution,
): Promise<number> {
  // One row per key, the first as one by one: an item listed twice gets one link and one activity.
  const seen = new Set<string>();
  const posts = found.map(keyed).filter((post) => !seen.has(post.id) && Boolean(seen.add(post.id)));
  if (posts.length === 0) return 0;
  const curator = { id: `source:${attribution.sourceId}`, username: null, tweetId: null, notes: null };
  const at = new Date();
  return withModerationLog(db, async (tx) => {
    await insertPosts(
      tx,
      posts.map((post) => postRow(post, curator, at)),
    );
    const inserted = await insertLinks(
      tx,
      posts.map((post) => linkRow(post, attribution.feedId, curator, at)),
    );
    const fresh = new Set(inserted.map((link) => link.submissionId));
    const linked = posts.filter((post) => fresh.has(post.id));
    if (linked.length) {
      await tx.execute(
        bulkInsert(
          activities,
          linked.map((post) => submissionActivity(post, attribution.feedId, curator)),
        ),
      );
      logLater(
        tx,
        linked.map((post) => ({
          feedId: attribution.feedId,
          action: "submit" as const,
          via: "feed_source" as const,
          network: post.platform,
          item: post.id,
          details: { source: attribution.sourceId },
        })),
      );
    }
    return linked.length;
  });
}

function actorKey(post: SocialPost): string {
  return `${post.platform}\u0000${handleKey(post.authorUsername)}`;
}

/** The moderation actors of posts' authors, looked up per network (a page may mix them). */
async function actorsForPosts(tx: Database, posts: readonly SocialPost[]) {
  const byPlatform = new Map<Platform, string[]>();
  for (const post of posts)
    byPlatform.set(post.platform, [...(byPlatform.get(post.platform) ?? []), post.authorUsername]);
  const actors = new Map<string, ModerationActor>();
  for (const [platform, handles] of byPlatform) {
    for (const [handle, actor] of await actorsForHandles(tx, platform, handles)) {
      actors.set(`${platform}\u0000${handle}`, actor);
    }
  }
  return actors;
}

/** Mentions applied in one transaction: a page costs a handful of statements instead of several per mention. */
const BATCH_SIZE = 200;

/**
 * Applies a batch of mentions, oldest first, in one transaction with set-based writes: the same outcome as
 * `ingestMention` on each in turn. Submissions and feed links go in as one multi-row insert each (a post or link
 * already stored is left alone, the first of a batch wins, as one by one); the links' activities in one more;
 * curators' linked accounts in one query. Decisions (approvers' own submissions, `!approve`/`!reject` replies) run
 * after the batch's submissions, in order: a reply always comes after the submission it answers.
 */
export async function ingestMentionBatch(
  db: Database,
  grammar: CommandGrammar,
  posts: readonly SocialPost[],
): Promise<IngestOutcome[]> {
  const commands = posts.map((post) => parseCommand(commandText(post), grammar.botHandle, grammar));
  const mentions = posts.map(keyed);
  return withModerationLog(db, async (tx) => {
    const outcomes: IngestOutcome[] = mentions.map((_, index) =>
      commands[index]
        ? { submitted: [], moderated: [] }
        : { submitted: [], moderated: [], ignored: "no command" },
    );

    const submits = mentions.flatMap((mention, index) => {
      const command = commands[index];
      if (command?.kind !== "submit") return [];
      const target = mention.inReplyToId ? mention.repliedTo : mention;
      if (!target) {
        outcomes[index].ignored = "the replied-to post is unavailable";
        return [];
      }
      const curator: Curator = {
        id: mention.authorId,
        username: authorKey(mention),
        tweetId: mention.id,
        notes: command.note,
      };
      return [{ index, mention, target, feedIds: command.feedIds, curator }];
    });

    if (submits.length) {
      if (submits.some((submit) => submit.feedIds.length === 0)) await ensureAllFeed(tx);
      const wanted = [
        ...new Set(submits.flatMap((submit) => (submit.feedIds.length ? submit.feedIds : [ALL_FEED_ID]))),
      ];
      const feedRows: FeedRow[] = await tx
        .select({ id: feeds.id, config: feeds.config, createdBy: feeds.createdBy, admins: feeds.admins })
        .from(feeds)
        .where(inArray(feeds.id, wanted));
      const feedById = new Map(feedRows.map((feed) => [feed.id, feed]));

      const planned = submits.flatMap((submit) => {
        const ids = submit.feedIds.length ? submit.feedIds : [ALL_FEED_ID];
        const candidates = ids.flatMap((id) => feedById.get(id) ?? []);
        const curatorHandle = handleKey(submit.mention.authorUsername);
        const open = candidates.filter((feed) => feedIsEnabled(feed.config));
        const allowed = open.filter(
          (feed) => !listedHandles(feed.config, "blacklist", submit.mention.platform).has(curatorHandle),
        );
        if (allowed.length === 0) {
          outcomes[submit.index].ignored = open.length
            ? "curator is blacklisted"
            : candidates.length
              ? "feed is disabled"
              : "no such feed";
          return [];
        }
        return [{ ...submit, allowed }];
      });

      if (planned.length) {
        await insertPosts(
          tx,
          planned.map(({ target, curator, mention }) => postRow(target, curator, mention.createdAt)),
        );
        const linkRows = planned.flatMap(({ target, curator, mention, allowed }) =>
          allowed.map((feed) => linkRow(target, feed.id, curator, mention.createdAt)),
        );
        const inserted = linkRows.length ? await insertLinks(tx, linkRows) : [];
        const fresh = new Set(inserted.map((link) => `${link.submissionId}\u0000${link.feedId}`));
        const actors = await actorsForPosts(
          tx,
          planned.map(({ mention }) => mention),
        );

        const newLinks = planned.flatMap((submit) =>
          submit.allowed.flatMap((feed) => {
            const key = `${submit.target.id}\u0000${feed.id}`;
            // The first mention of a batch to make a link owns it, as it would one mention at a time.
            if (!fresh.delete(key)) return [];
            return [{ submit, feed }];
          }),
        );
        if (newLinks.length) {
          await tx.execute(
            bulkInsert(
              activities,
              newLinks.map(({ submit: { target, curator }, feed }) =>
                submissionActivity(target, feed.id, curator),
              ),
            ),
          );
        }
        const autoApprovals: ModerationInput[] = [];
        const autoApproved: Array<IngestOutcome["submitted"][number]> = [];
        logLater(
          tx,
          newLinks.map(({ submit, feed }) =>
            submissionDraft(
              submit.target,
              feed.id,
              submit.mention,
              submit.curator,
              actors.get(actorKey(submit.mention))?.nearAccountId,
            ),
          ),
        );
        for (const { submit, feed } of newLinks) {
          const actor = actors.get(actorKey(submit.mention)) ?? {};
          const outcome = outcomes[submit.index];
          await acknowledgeSubmission(tx, submit.target.id, feed, submit.mention.id);
          const moderates = canModerateFor(moderatorReason(feed, actor));
          const trusted = !moderates && (await isTrustedCurator(tx, feed, authorKey(submit.mention)));
          if (moderates || trusted) {
            autoApprovals.push({
              submissionId: submit.target.id,
              feedId: feed.id,
              action: "approve",
              moderatorAccountId: authorKey(submit.mention),
              moderatorAccountIdType: "platform_username",
              source: "auto_approval",
              origin: { account: actor.nearAccountId ?? null, ...(trusted ? { trusted } : {}) },
            });
            const entry: IngestOutcome["submitted"][number] = {
              submissionId: submit.target.id,
              feedId: feed.id,
              status: "approved",
            };
            outcome.submitted.push(entry);
            autoApproved.push(entry);
          } else {
            outcome.submitted.push({ submissionId: submit.target.id, feedId: feed.id, status: "pending" });
          }
        }
        // Links this batch made: nobody else can have decided them, so each is approved (or, in a quorum feed,
        // has its curator's vote).
        const decided = await moderateLinks(tx, autoApprovals);
        for (const [index, entry] of autoApproved.entries()) {
          if (decided[index]?.status === "pending") entry.status = "pending";
        }
      }
    }

    // Links before decisions: a handle proven anywhere in the page may decide in it (it is proven either way).
    for (const [index, command] of commands.entries()) {
      if (command?.kind === "link") await handleLink(tx, mentions[index], command.code, outcomes[index]);
    }
    await decideAnswered(
      tx,
      mentions.flatMap((reply, index) => {
        const command = commands[index];
        if (!command || command.kind === "submit" || command.kind === "link") return [];
        return [
          {
            reply,
            action: command.kind,
            feedIds: command.feedIds,
            note: command.note,
            outcome: outcomes[index],
          },
        ];
      }),
    );
    return outcomes;
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
 * after all of them are stored, so a crash re-reads (harmlessly) instead of losing mentions. What it read is
 * counted in `metrics` (the intake's; a test driving a source by hand may leave them out).
 */
export async function runMentionIntake(
  db: Database,
  source: MentionSource,
  logger?: Logger,
  metrics?: Metrics,
): Promise<IntakeRun> {
  const { posts, cursor } = await source.fetchMentions(await readCursor(db, source.key));
  metrics?.observeIntakePoll(mentionNetwork(source), {
    postedAt: posts.map((post) => post.createdAt),
    failed: false,
    at: new Date(),
  });
  const run: IntakeRun = { read: posts.length, submitted: 0, moderated: 0 };
  const count = (outcome: IngestOutcome) => {
    run.submitted += outcome.submitted.length;
    run.moderated += outcome.moderated.length;
  };
  const ordered = oldestFirst(posts);
  for (let start = 0; start < ordered.length; start += BATCH_SIZE) {
    const batch = ordered.slice(start, start + BATCH_SIZE);
    try {
      for (const outcome of await ingestMentionBatch(db, source, batch)) count(outcome);
      continue;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    // One mention the batch could not take costs only itself: the batch is applied again one mention at a time.
    for (const mention of batch) {
      try {
        count(await ingestMention(db, source, mention));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        logger?.debug({ mention: mention.id, reason: error.message }, "mention skipped");
      }
    }
  }
  if (cursor) await saveCursor(db, source.key, cursor);
  return run;
}
