import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { freshDatabase } from "../../test/harness.ts";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import type { SocialPost } from "../sources/types.ts";
import { ingestMention, ingestMentionBatch } from "./service.ts";

/**
 * Intake applies a page of mentions in one set-based transaction; it must leave exactly what applying them one at a
 * time leaves, whatever the mix: the same post submitted twice in a batch, resubmissions, replies to submissions
 * of the same batch, decisions by non-approvers, blacklisted curators, approvers' own submissions, disabled and
 * unknown feeds.
 */
const BOT = "curatebot";
const FEEDS = ["ai", "web3", "paused", "nosuchfeed"];
const PEOPLE = ["amy", "dan", "cat", "spammer", "nobody"];
const POSTS = ["p1", "p2", "p3", "p4"];

type Step =
  | { kind: "submit"; author: string; post: string; feeds: string[]; note: string }
  | { kind: "standalone"; author: string; feeds: string[] }
  | { kind: "decide"; author: string; action: "approve" | "reject"; submitStep: number; feeds: string[] };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("submit" as const),
    author: fc.constantFrom(...PEOPLE),
    post: fc.constantFrom(...POSTS),
    feeds: fc.subarray(FEEDS),
    note: fc.constantFrom("", "must read", "another angle"),
  }),
  fc.record({
    kind: fc.constant("standalone" as const),
    author: fc.constantFrom(...PEOPLE),
    feeds: fc.subarray(FEEDS),
  }),
  fc.record({
    kind: fc.constant("decide" as const),
    author: fc.constantFrom(...PEOPLE),
    action: fc.constantFrom("approve" as const, "reject" as const),
    submitStep: fc.nat(),
    feeds: fc.subarray(["ai", "web3"], { maxLength: 1 }),
  }),
);

function post(id: string, author: string, text: string, at: number, repliedTo?: SocialPost): SocialPost {
  return {
    platform: "twitter",
    id,
    text,
    authorId: `id_${author}`,
    authorUsername: author,
    url: `https://x.com/${author}/status/${id}`,
    createdAt: new Date(Date.UTC(2026, 10, 1) + at * 1000),
    inReplyToId: repliedTo?.id ?? null,
    repliedTo: repliedTo ?? null,
  };
}

/** The mentions a script of steps makes, oldest first; a decision answers an earlier submit mention. */
function mentionsOf(steps: Step[]): SocialPost[] {
  const originals = new Map(
    POSTS.map((id, index) => [id, post(id, `author${index}`, `Original ${id}`, index)]),
  );
  const mentions: SocialPost[] = [];
  const submitMentions: SocialPost[] = [];
  const tags = (feeds: string[]) => feeds.map((feed) => `#${feed}`).join(" ");
  steps.forEach((step, index) => {
    const id = `m${String(index).padStart(3, "0")}`;
    const at = 100 + index;
    if (step.kind === "submit") {
      const mention = post(
        id,
        step.author,
        `!submit @${BOT} ${tags(step.feeds)} ${step.note}`,
        at,
        originals.get(step.post),
      );
      submitMentions.push(mention);
      mentions.push(mention);
    } else if (step.kind === "standalone") {
      mentions.push(post(id, step.author, `!submit @${BOT} ${tags(step.feeds)} my own thought ${index}`, at));
    } else if (submitMentions.length) {
      const answered = submitMentions[step.submitStep % submitMentions.length];
      mentions.push(
        post(id, step.author, `@${BOT} !${step.action} ${tags(step.feeds)} decided`, at, answered),
      );
    }
  });
  return mentions;
}

/** Carries a side's result out of the transaction that is rolled back under it. */
class RolledBack<T> {
  readonly value: T;

  constructor(value: T) {
    this.value = value;
  }
}

/**
 * Runs `use` on the feeds below inside a transaction that is then rolled back, so every run of the property starts
 * from the same empty database without paying for a fresh one (intake's own transactions become savepoints in it).
 */
async function withFeeds<T>(db: Database, use: (db: Database) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      const scoped = tx as unknown as Database;
      await insertFeed(scoped, {
        id: "ai",
        approvers: { twitter: ["Amy"] },
        blacklist: { twitter: ["@spammer"] },
      });
      await insertFeed(scoped, { id: "web3", approvers: { twitter: ["dan"] } });
      await insertFeed(scoped, { id: "paused", config: { enabled: false } });
      throw new RolledBack(await use(scoped));
    });
  } catch (outcome) {
    if (outcome instanceof RolledBack) return outcome.value as T;
    throw outcome;
  }
  throw new Error("the transaction was not rolled back");
}

/** Everything intake writes, without generated ids and clocks, in a stable order. */
async function snapshot(db: Database) {
  const rows = (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(db, query);
  return {
    submissions: await rows(
      sql`select tweet_id, username, content, curator_username, curator_notes, curator_tweet_id from submissions order by tweet_id`,
    ),
    links: await rows(
      sql`select submission_id, feed_id, status, curator_username, curator_notes, curator_tweet_id from submission_feeds order by submission_id, feed_id`,
    ),
    history: await rows(
      sql`select submission_id, feed_id, action, moderator_account_id, source, note from moderation_history order by submission_id, feed_id, action, moderator_account_id`,
    ),
    activities: await rows(
      sql`select type, user_id, feed_id, submission_id from activities order by type, user_id, feed_id, submission_id`,
    ),
    jobs: await rows(
      sql`select submission_id, feed_id, status from processing_jobs order by submission_id, feed_id`,
    ),
    stats: await rows(
      sql`select feed_id, curator_username, curator_id, submission_count, approval_count, rejection_count from feed_user_stats order by feed_id, curator_username`,
    ),
    // The same entries, though a batch logs its submissions before its decisions (the order within a feed differs).
    log: await rows(
      sql`select feed_id, action, via, network, actor_account, actor_handle, submission_id from moderation_log_entries
        order by feed_id, action, submission_id, actor_handle`,
    ),
  };
}

describe("a batch of mentions", () => {
  it("leaves exactly what applying them one at a time leaves", async () => {
    const { handle, dispose } = await freshDatabase();
    onTestFinished(dispose);
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 16 }),
        async (steps, batchSize) => {
          const mentions = mentionsOf(steps);
          const oneByOne = await withFeeds(handle.db, async (db) => {
            const outcomes = [];
            for (const mention of mentions) {
              try {
                outcomes.push(await ingestMention(db, { botHandle: BOT }, mention));
              } catch (error) {
                outcomes.push({ error: (error as Error).message });
              }
            }
            return { outcomes, tables: await snapshot(db) };
          });
          const batched = await withFeeds(handle.db, async (db) => {
            const outcomes = [];
            for (let start = 0; start < mentions.length; start += batchSize) {
              outcomes.push(
                ...(await ingestMentionBatch(
                  db,
                  { botHandle: BOT },
                  mentions.slice(start, start + batchSize),
                )),
              );
            }
            return { outcomes, tables: await snapshot(db) };
          });
          expect(batched.tables).toEqual(oneByOne.tables);
          expect(batched.outcomes).toEqual(oneByOne.outcomes);
        },
      ),
      { numRuns: 25 },
    );
    // A limit that only stops a hang, on a machine busy with a second gate.
  }, 600_000);
});
