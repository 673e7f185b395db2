import { asc, gt, inArray } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { testPosts } from "../db/schema.ts";
import type { FetchResult, MentionSource, SearchSource, SearchSpec, SocialPost } from "./types.ts";

type TestPost = typeof testPosts.$inferSelect;

const TEST_ID_BASE = 1_900_000_000_000_000_000n;

/** Test post ids look like X ids and grow with their sequence, so cursors compare as on X. */
export function testPostId(seq: number): string {
  return String(TEST_ID_BASE + BigInt(seq));
}

function toPost(row: TestPost, parents: Map<string, TestPost>): SocialPost {
  const parent = row.inReplyToStatusId ? parents.get(row.inReplyToStatusId) : undefined;
  return {
    platform: "twitter",
    id: row.id,
    text: row.text,
    authorId: `test:${row.username.toLowerCase()}`,
    authorUsername: row.username,
    // Test posts stand in for X posts, so they get an X post's address shape.
    url: `https://x.com/${row.username}/status/${row.id}`,
    createdAt: row.createdAt,
    inReplyToId: row.inReplyToStatusId,
    repliedTo: parent ? toPost(parent, new Map()) : null,
  };
}

async function testPostsAfter(
  db: Database,
  cursor: string | null,
): Promise<{ posts: TestPost[]; parents: Map<string, TestPost> }> {
  const after = cursor ? Number(cursor) : 0;
  const posts = await db.select().from(testPosts).where(gt(testPosts.seq, after)).orderBy(asc(testPosts.seq));
  const parentIds = [
    ...new Set(posts.map((t) => t.inReplyToStatusId).filter((id): id is string => Boolean(id))),
  ];
  const parents = new Map<string, TestPost>();
  if (parentIds.length) {
    for (const parent of await db.select().from(testPosts).where(inArray(testPosts.id, parentIds))) {
      parents.set(parent.id, parent);
    }
  }
  return { posts, parents };
}

function cursorOf(posts: TestPost[], previous: string | null) {
  return posts.length ? String(posts[posts.length - 1].seq) : previous;
}

/** Test posts stored by POST /api/test/tweets, read as the bot's mentions (development and test only). */
export class TestMentionSource implements MentionSource {
  private readonly db: Database;
  readonly botHandle: string;
  readonly key = "test:mentions";
  readonly platform = "twitter";
  constructor(db: Database, botHandle: string) {
    this.db = db;
    this.botHandle = botHandle;
  }

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    const { posts, parents } = await testPostsAfter(this.db, cursor);
    const mention = new RegExp(`@${this.botHandle}(?!\\w)`, "i");
    return {
      posts: posts.filter((t) => mention.test(t.text)).map((t) => toPost(t, parents)),
      cursor: cursorOf(posts, cursor),
    };
  }
}

/** A feed source over test posts: a query matches posts holding all of its words or hashtags. */
export class TestSearchSource implements SearchSource {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    const { posts, parents } = await testPostsAfter(this.db, cursor);
    const terms = (spec.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const matching = posts.filter(
      (t) => terms.length > 0 && terms.every((term) => t.text.toLowerCase().includes(term)),
    );
    return {
      posts: matching.slice(0, spec.pageSize ?? 100).map((t) => toPost(t, parents)),
      cursor: cursorOf(posts, cursor),
    };
  }
}
