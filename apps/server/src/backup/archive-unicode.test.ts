import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type SQL, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Driver } from "../../test/databases.ts";
import type { Database } from "../db/index.ts";
import { activities, feeds, submissions } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { exportArchive, importArchive } from "./archive.ts";
import { migratedDatabase, reachableDrivers, removeOwnTemplate } from "./archive-testing.ts";

/**
 * Export → import gives back every well-formed string byte for byte (U+0000 aside: PostgreSQL text cannot hold
 * it), in text columns, in JSON documents and as JSON keys. One generated set of strings goes into one archive per
 * driver, and each archive is imported into each driver: with TEST_DATABASE_URL, PGlite ⇄ PostgreSQL both ways.
 * A failure names its seed; ARCHIVE_PROPERTY_SEED=<seed> generates the same strings again.
 */
const seed = Number(process.env.ARCHIVE_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** What a text-based reader or writer could trip on, among arbitrary code points. */
const awkward = fc.constantFrom(
  "\u2028",
  "\u2029",
  "\r",
  "\n",
  "\r\n",
  "\u0085",
  "\\",
  "\\u2028",
  "\\n",
  '"',
  "\t",
  "\u001f",
  "😀",
  "👩‍👩‍👧‍👦",
  "🇺🇦",
  "e\u0301",
  "\u202e",
  "\u200f",
  "שלום עולם",
  "مرحبا بالعالم",
  "\ufeff",
  "\uffff",
  "\u{10ffff}",
  "\u{1f600}",
);
const piece = fc.oneof(
  awkward,
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const shortText = fc
  .array(piece, { maxLength: 12 })
  .map((pieces) => pieces.join("").replaceAll("\u0000", ""));
const longText = fc
  .tuple(
    shortText.filter((text) => text.length > 0),
    fc.integer({ min: 50_000, max: 150_000 }),
  )
  .map(([text, length]) => text.repeat(Math.ceil(length / text.length)));
const [texts] = fc.sample(
  fc.tuple(
    fc.array(shortText, { minLength: 150, maxLength: 150 }),
    fc.array(longText, { minLength: 3, maxLength: 3 }),
  ),
  { numRuns: 1, seed },
);
const values = [...texts[0], ...texts[1], "\u2028", "\u2029\r\u0085\\"];
/** Feeds get the short ones: their names and descriptions are what lists show. */
const feedValues = values.slice(0, 40);

async function fill(db: Database) {
  await db.insert(feeds).values(
    feedValues.map((value, i) => ({
      id: `prop${i}`,
      name: value,
      description: value,
      config: { id: `prop${i}`, name: "Generated", description: "Generated", notes: value },
    })),
  );
  for (let i = 0; i < values.length; i += 50) {
    const batch = values.slice(i, i + 50);
    await db.insert(submissions).values(
      batch.map((value, j) => ({
        tweetId: `prop-${i + j}`,
        userId: "prop",
        username: "prop",
        content: value,
        curatorNotes: value,
        media: [{ url: "https://example.com/a.png", type: "image", alt: value }],
        createdAt: new Date(Date.UTC(2026, 0, 1)),
      })),
    );
    await db.insert(activities).values(
      batch.map((value, j) => ({
        userId: `prop-${i + j}`,
        type: "CONTENT_SUBMISSION" as const,
        data: { text: value, [value.length <= 1000 ? value : "long"]: i + j },
      })),
    );
  }
}

/**
 * Rows as JSON documents: PGlite's client decodes a text column with a TextDecoder that drops a leading U+FEFF,
 * while the stored value (and the archive, which reads rows as JSON) keeps it.
 */
async function documents<T>(db: Database, query: SQL): Promise<T[]> {
  const rows = await queryRows<{ doc: string }>(
    db,
    sql`select row_to_json(q)::text as doc from (${query}) q`,
  );
  return rows.map((row) => JSON.parse(row.doc) as T);
}

/** What came back where: `[index, place, text]`. */
async function readBack(db: Database): Promise<Array<[number, string, string]>> {
  const found: Array<[number, string, string]> = [];
  const posts = await documents<{ id: string; content: string; notes: string; alt: string }>(
    db,
    sql`select tweet_id as id, content, curator_notes as notes, media -> 0 ->> 'alt' as alt from submissions`,
  );
  for (const post of posts) {
    const index = Number(post.id.slice("prop-".length));
    found.push(
      [index, "content", post.content],
      [index, "notes", post.notes],
      [index, "media alt", post.alt],
    );
  }
  const logged = await documents<{ user: string; data: Record<string, unknown> }>(
    db,
    sql`select user_id as user, data from activities`,
  );
  for (const { user, data } of logged) {
    const index = Number(user.slice("prop-".length));
    found.push([index, "JSON value", String(data.text)]);
    const key = Object.keys(data).find((name) => name !== "text" && data[name] === index) ?? "(no key)";
    if (values[index].length <= 1000) found.push([index, "JSON key", key]);
  }
  const listed = await documents<{ id: string; name: string; description: string; notes: string }>(
    db,
    sql`select id, name, description, config ->> 'notes' as notes from feeds`,
  );
  for (const feed of listed) {
    const index = Number(feed.id.slice("prop".length));
    found.push([index, "feed name", feed.name], [index, "feed description", feed.description]);
    found.push([index, "feed config", feed.notes]);
  }
  return found;
}

const codePoints = (text: string) =>
  [...text]
    .slice(0, 12)
    .map((ch) => `U+${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`)
    .join(" ");

const work = mkdtempSync(join(tmpdir(), "curate-archive-unicode-"));
const drivers = reachableDrivers();
const archives = new Map<Driver, string>();

beforeAll(async () => {
  for (const driver of drivers) {
    const source = await migratedDatabase(driver);
    try {
      await fill(source.handle.db);
      const file = join(work, `${driver}.curate.gz`);
      await exportArchive(source.handle.db, join(work, "no-uploads"), file);
      archives.set(driver, file);
    } finally {
      await source.dispose();
    }
  }
});

afterAll(() => {
  removeOwnTemplate();
  rmSync(work, { recursive: true, force: true });
});

describe(`export → import keeps every string byte for byte (seed ${seed})`, () => {
  it("writes U+2028 and U+2029 escaped, so no line reader splits a line at them", () => {
    for (const file of archives.values()) {
      const text = gunzipSync(readFileSync(file));
      expect(text.includes(Buffer.from("\u2028"))).toBe(false);
      expect(text.includes(Buffer.from("\u2029"))).toBe(false);
      expect(text.includes(Buffer.from("\\u2028"))).toBe(true);
    }
  });

  it.each(drivers.flatMap((from) => drivers.map((to) => ({ from, to }))))(
    "from $from into $to",
    async ({ from, to }) => {
      const target = await migratedDatabase(to);
      try {
        await importArchive(
          target.handle.db,
          join(work, `uploads-${from}-${to}`),
          archives.get(from) as string,
        );
        const found = await readBack(target.handle.db);
        const expectedPlaces =
          values.length * 3 + values.length + values.filter((v) => v.length <= 1000).length;
        expect(found).toHaveLength(expectedPlaces + feedValues.length * 3);
        const wrong = found
          .filter(([index, , text]) => !Buffer.from(text, "utf8").equals(Buffer.from(values[index], "utf8")))
          .map(
            ([index, place, text]) =>
              `#${index} ${place}: sent ${values[index].length} chars (${codePoints(values[index])}), got ${text.length} (${codePoints(text)})`,
          );
        expect(wrong, `seed ${seed}`).toEqual([]);
      } finally {
        await target.dispose();
      }
    },
    60_000,
  );
});
