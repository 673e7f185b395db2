import { asc, gt, inArray } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { testTweets } from "../db/schema.ts";
import type { FetchResult, MentionSource, SearchSource, SearchSpec, SocialPost } from "./types.ts";

type TestTweet = typeof testTweets.$inferSelect;

const TEST_ID_BASE = 1_900_000_000_000_000_000n;

/** Test post ids look like X ids and grow with their sequence, so cursors compare as on X. */
export function testTweetId(seq: number): string {
  return String(TEST_ID_BASE + BigInt(seq));
}

function toPost(tweet: TestTweet, parents: Map<string, TestTweet>): SocialPost {
  const parent = tweet.inReplyToStatusId ? parents.get(tweet.inReplyToStatusId) : undefined;
  return {
    platform: "twitter",
    id: tweet.id,
    text: tweet.text,
    authorId: `test:${tweet.username.toLowerCase()}`,
    authorUsername: tweet.username,
    // Test posts stand in for X posts, so they get an X post's address shape.
    url: `https://x.com/${tweet.username}/status/${tweet.id}`,
    createdAt: tweet.createdAt,
    inReplyToId: tweet.inReplyToStatusId,
    repliedTo: parent ? toPost(parent, new Map()) : null,
  };
}

async function tweetsAfter(
  db: Database,
  cursor: string | null,
): Promise<{ tweets: TestTweet[]; parents: Map<string, TestTweet> }> {
  const after = cursor ? Number(cursor) : 0;
  const tweets = await db
    .select()
    .from(testTweets)
    .where(gt(testTweets.seq, after))
    .orderBy(asc(testTweets.seq));
  const parentIds = [
    ...new Set(tweets.map((t) => t.inReplyToStatusId).filter((id): id is string => Boolean(id))),
  ];
  const parents = new Map<string, TestTweet>();
  if (parentIds.length) {
    for (const parent of await db.select().from(testTweets).where(inArray(testTweets.id, parentIds))) {
      parents.set(parent.id, parent);
    }
  }
  return { tweets, parents };
}

function cursorOf(tweets: TestTweet[], previous: string | null) {
  return tweets.length ? String(tweets[tweets.length - 1].seq) : previous;
}

/** Test posts stored by POST /api/test/tweets, read as the bot's mentions (development and test only). */
export class TestMentionSource implements MentionSource {
  readonly key = "test:mentions";
  readonly platform = "twitter";
  constructor(
    private readonly db: Database,
    readonly botHandle: string,
  ) {}

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    const { tweets, parents } = await tweetsAfter(this.db, cursor);
    const mention = new RegExp(`@${this.botHandle}(?!\\w)`, "i");
    return {
      posts: tweets.filter((t) => mention.test(t.text)).map((t) => toPost(t, parents)),
      cursor: cursorOf(tweets, cursor),
    };
  }
}

/** A feed source over test posts: a query matches posts holding all of its words or hashtags. */
export class TestSearchSource implements SearchSource {
  constructor(private readonly db: Database) {}

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    const { tweets, parents } = await tweetsAfter(this.db, cursor);
    const terms = (spec.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const matching = tweets.filter(
      (t) => terms.length > 0 && terms.every((term) => t.text.toLowerCase().includes(term)),
    );
    return {
      posts: matching.slice(0, spec.pageSize ?? 100).map((t) => toPost(t, parents)),
      cursor: cursorOf(tweets, cursor),
    };
  }
}
