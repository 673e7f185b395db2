import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { freshDatabase } from "../../test/harness.ts";
import { bulkInsert } from "./bulk-insert.ts";
import type { Database } from "./index.ts";
import { activities, moderationLogEntries, submissions } from "./schema.ts";

let db: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const scratch = await freshDatabase();
  db = scratch.handle.db;
  dispose = scratch.dispose;
  await insertFeed(db, { id: "bulk" });
});
afterAll(() => dispose());

/** Texts that break array literals, JSON or line-based readers when escaped by hand. */
const AWKWARD = [
  'a "quoted", {braced} value',
  "back\\slash and NULL",
  "line\u2028separator\u2029and\r\nbreaks",
  "émoji 🧪 and עברית",
  "",
  "null",
];

const post = (n: number, content: string): typeof submissions.$inferInsert => ({
  tweetId: `bulk-${n}`,
  platform: "twitter",
  userId: `author-${n}`,
  username: `author_${n}`,
  authorDisplayName: n % 2 ? null : `Author ${n}`,
  authorProfileImage: null,
  content,
  url: `https://x.com/author_${n}/status/${n}`,
  media: n % 2 ? null : [{ type: "photo", url: `https://pbs.example/${n}.jpg`, alt: content }],
  curatorId: "c-1",
  curatorUsername: "cat",
  curatorNotes: content,
  curatorTweetId: `9${n}`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
  submittedAt: new Date(Date.UTC(2026, 0, 2, 0, n, 0, 123)),
});

describe("bulkInsert", () => {
  it("writes every row as the query builder would, values of every type and awkward text included", async () => {
    const rows = AWKWARD.map((content, n) => post(n, content));
    await db.execute(bulkInsert(submissions, rows.slice(0, 3)));
    await db.insert(submissions).values(rows.slice(3));
    const stored = await db.select().from(submissions).orderBy(asc(submissions.tweetId));
    expect(stored).toHaveLength(AWKWARD.length);
    for (const [n, row] of stored.entries()) {
      expect(row).toMatchObject({ ...rows[n], status: "pending" });
      expect(row.updatedAt).toBeInstanceOf(Date);
    }
  });

  it("carries JSON documents, big numbers and times whole, and leaves out columns to their defaults", async () => {
    const drafts = AWKWARD.map((note, n) => ({
      feedId: "bulk",
      seq: 2 ** 40 + n,
      at: new Date(Date.UTC(2026, 5, 1, 12, 0, n)),
      action: "submit" as const,
      via: "reply" as const,
      network: n % 2 ? null : "x",
      prevHash: "0".repeat(64),
      hash: String(n).repeat(64).slice(0, 64),
      fields: {
        note: { digest: "d".repeat(64), value: note, salt: "s" },
        details: { digest: "e".repeat(64), value: [note, 1, null, { deep: [true] }], salt: "t" },
      },
      actorAccount: null,
      actorHandle: note,
      submissionId: `bulk-${n}`,
    }));
    await db.execute(bulkInsert(moderationLogEntries, drafts));
    const entries = await db
      .select()
      .from(moderationLogEntries)
      .where(eq(moderationLogEntries.feedId, "bulk"))
      .orderBy(asc(moderationLogEntries.seq));
    expect(entries).toEqual(drafts);

    await db.execute(
      bulkInsert(activities, [
        {
          userId: "cat",
          type: "CONTENT_SUBMISSION",
          feedId: "bulk",
          submissionId: "bulk-0",
          data: { notes: "a JSON string", curatorTweetId: null },
        },
        {
          userId: "cat",
          type: "CONTENT_SUBMISSION",
          feedId: "bulk",
          submissionId: "bulk-1",
          data: { list: [1, "two"] },
        },
      ]),
    );
    const written = await db.select().from(activities).orderBy(asc(activities.id));
    expect(written.map((row) => row.data)).toEqual([
      { notes: "a JSON string", curatorTweetId: null },
      { list: [1, "two"] },
    ]);
    expect(written.every((row) => row.id > 0 && row.timestamp instanceof Date)).toBe(true);
  });

  it("refuses rows that do not all give the same columns", () => {
    expect(() =>
      bulkInsert(submissions, [post(1, "a"), { ...post(2, "b"), url: undefined as unknown as string }]),
    ).toThrow(/row 1 of submissions leaves out url/);
    expect(() =>
      bulkInsert(submissions, [{ ...post(1, "a"), url: undefined as unknown as string }, post(2, "b")]),
    ).toThrow(/row 1 of submissions gives url, row 0 does not/);
  });
});
