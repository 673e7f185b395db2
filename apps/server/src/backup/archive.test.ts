import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { freshDatabase } from "../../test/harness.ts";
import { queryRows } from "../db/sql.ts";
import { seedDemoData } from "../seed/demo.ts";
import { type ArchiveSummary, exportArchive, importArchive } from "./archive.ts";
import { tableContents } from "./archive-testing.ts";

/**
 * Moving from the embedded database to PostgreSQL (and backups of either): the demo installation, on PGlite, is
 * exported and imported into a fresh database of the driver under test — PostgreSQL when TEST_DATABASE_URL is set,
 * as in CI's second pass — and must arrive whole.
 */
const work = mkdtempSync(join(tmpdir(), "curate-archive-"));
const sourceUploads = join(work, "source-uploads");
const archive = join(work, "demo.curate.gz");
let source: ScratchDatabase;
let exported: ArchiveSummary;

beforeAll(async () => {
  // On a PostgreSQL run there is no migrated PGlite template to copy: the source is migrated here.
  const template = inject("pgliteTemplateDir");
  source = await openScratchDatabase("pglite", template ? { template } : {});
  if (!template) await source.handle.migrate();
  await seedDemoData(source.handle.db, { uploadsDir: sourceUploads, publicUrl: "http://localhost:3000" });
  exported = await exportArchive(source.handle.db, sourceUploads, archive);
});

afterAll(async () => {
  await source?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("curate export / curate import", () => {
  it("copies every table and every upload, and the copy passes its own count check", async () => {
    expect(exported.tables.feeds).toBeGreaterThan(5);
    expect(exported.tables.submissions).toBeGreaterThan(100);
    expect(exported.tables.moderation_history).toBeGreaterThan(10);
    expect(exported.uploads).toBe(readdirSync(sourceUploads).length);

    const target = await freshDatabase();
    const targetUploads = join(work, "target-uploads");
    try {
      const { summary: imported } = await importArchive(target.handle.db, targetUploads, archive);
      expect(imported).toEqual(exported);
      expect(await tableContents(target.handle.db)).toEqual(await tableContents(source.handle.db));
      for (const name of readdirSync(sourceUploads)) {
        expect(readFileSync(join(targetUploads, name))).toEqual(readFileSync(join(sourceUploads, name)));
      }
      // Ids continue after the imported ones.
      const [{ next }] = await queryRows<{ next: number }>(
        target.handle.db,
        sql`insert into moderation_history (submission_id, feed_id, moderator_account_id, moderator_account_id_type, source, action)
          select submission_id, feed_id, 'restorer.near', 'near', 'ui', 'approve' from moderation_history limit 1
          returning id as next`,
      );
      const [{ max }] = await queryRows<{ max: number }>(
        source.handle.db,
        sql`select max(id)::int as max from moderation_history`,
      );
      expect(next).toBeGreaterThan(max);
    } finally {
      await target.dispose();
    }
  });

  it("refuses a database that already holds data, and a cut-off archive, leaving the target as it was", async () => {
    const target = await freshDatabase();
    try {
      await expect(importArchive(source.handle.db, join(work, "again"), archive)).rejects.toThrow(
        "already holds data",
      );

      const cut = join(work, "cut.curate.gz");
      copyFileSync(archive, cut);
      truncateSync(cut, Math.floor(statSync(cut).size / 2));
      await expect(importArchive(target.handle.db, join(work, "cut-uploads"), cut)).rejects.toThrow();
      const notAnArchive = join(work, "notes.txt");
      writeFileSync(notAnArchive, "just some notes");
      await expect(importArchive(target.handle.db, join(work, "x-uploads"), notAnArchive)).rejects.toThrow(
        "notes.txt is not a Curate archive",
      );
      const [{ feeds }] = await queryRows<{ feeds: number }>(
        target.handle.db,
        sql`select count(*)::int as feeds from feeds`,
      );
      expect(feeds).toBe(0);
    } finally {
      await target.dispose();
    }
  });
});
