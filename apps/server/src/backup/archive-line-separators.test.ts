import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/sql.ts";
import { importArchive } from "./archive.ts";
import { archiveLines, databaseAtMigration } from "./archive-testing.ts";

/**
 * `fixtures/line-separators-v1.curate.gz` was written by the export as it was before it escaped U+2028 and
 * U+2029 (a feed, a post and its feed link whose texts hold them raw, and one upload), so it stands for every
 * archive made by that version. It is imported into a database at the archive's own migration, as the version
 * that wrote it would have.
 */
const fixture = join(import.meta.dirname, "fixtures/line-separators-v1.curate.gz");
const work = mkdtempSync(join(tmpdir(), "curate-line-separators-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("an archive with U+2028 and U+2029 in its rows", () => {
  it("holds them unescaped, as the export then wrote them", () => {
    const text = gunzipSync(readFileSync(fixture));
    // E2 80 A8 and E2 80 A9: U+2028 and U+2029 in UTF-8, inside the JSON strings, not as escapes.
    expect(text.includes(Buffer.from("first line\u2028second line\u2029second paragraph"))).toBe(true);
    expect(text.includes(Buffer.from("\\u2028"))).toBe(false);
    expect(readFileSync(fixture).length).toBeLessThan(2048);
  });

  it("imports whole, every separator in place", async () => {
    const [header] = archiveLines(fixture) as Array<{ migration: string }>;
    const target = await databaseAtMigration(header.migration);
    const uploads = join(work, "uploads");
    try {
      const { summary } = await importArchive(target.handle.db, uploads, fixture);
      expect(summary.tables).toMatchObject({ feeds: 1, submissions: 1, submission_feeds: 1 });
      const [post] = await queryRows<{
        content: string;
        notes: string;
        feedNotes: string;
        name: string;
        config: { name: string };
      }>(
        target.handle.db,
        sql`select s.content, s.curator_notes as notes, sf.curator_notes as "feedNotes", f.name, f.config
          from submissions s join submission_feeds sf on sf.submission_id = s.tweet_id join feeds f on f.id = sf.feed_id`,
      );
      expect(post).toEqual({
        content: "first line\u2028second line\u2029second paragraph",
        notes: "notes\u2028with a line separator",
        feedNotes: "feed notes\u2029too",
        name: "Line\u2028separators",
        config: expect.objectContaining({ name: "Line\u2028separators" }),
      });
      expect(readFileSync(join(uploads, "tiny.txt"), "utf8")).toBe("an upload\u2028with a separator\n");
    } finally {
      await target.dispose();
    }
  });
});
