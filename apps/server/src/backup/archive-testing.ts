import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { inject } from "vitest";
import { type Driver, openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { type Database, MIGRATIONS_FOLDER, openDatabase } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { tablesInOrder } from "./archive.ts";

/** Helpers the archive tests share: databases of either driver, archives taken apart, folders compared. */

/** Every table's rows as the database renders them, sorted, in one time zone. */
export async function tableContents(db: Database): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    for (const table of tablesInOrder()) {
      const rows = await queryRows<{ row: string }>(
        tx,
        sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t`,
      );
      tables[table] = rows.map((r) => r.row).sort();
    }
  });
  return tables;
}

/** A folder's files by name with their SHA-256 (null: no folder), and whether staging folders sit beside it. */
export function folderState(dir: string) {
  const files = existsSync(dir)
    ? Object.fromEntries(
        readdirSync(dir)
          .sort()
          .map((name) => {
            const path = join(dir, name);
            if (statSync(path).isDirectory()) return [name, "(a folder)"];
            return [name, createHash("sha256").update(readFileSync(path)).digest("hex")];
          }),
      )
    : null;
  const staging = readdirSync(join(dir, "..")).filter((name) => name.startsWith(".import-staging-"));
  return { files, staging };
}

/** The archive's lines, parsed. */
export function archiveLines(file: string): Array<Record<string, unknown>> {
  return gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

/** Writes `lines` as an archive, the way a tampered or hand-edited copy would look. */
export function writeArchive(file: string, lines: Array<Record<string, unknown>>) {
  writeFileSync(file, gzipSync(`${lines.map((line) => JSON.stringify(line)).join("\n")}\n`));
}

/** The end line's summary of parsed archive lines. */
export function endOf(lines: Array<Record<string, unknown>>) {
  const end = lines.find((line) => "end" in line)?.end as { tables: Record<string, number>; uploads: number };
  if (!end) throw new Error("the archive has no end line");
  return end;
}

const postgresUrl = () => process.env.TEST_DATABASE_URL;

/** The drivers this run can reach: the embedded one always, PostgreSQL when TEST_DATABASE_URL is set. */
export function reachableDrivers(): Driver[] {
  return postgresUrl() ? ["pglite", "postgres"] : ["pglite"];
}

let pgliteTemplate: string | null = null;

/**
 * A migrated database of `driver`, copied from the run's template. A PostgreSQL run has no PGlite template, so
 * the first PGlite one is migrated here and copied after.
 */
/** Removes the PGlite template `migratedDatabase` made, if it made one (a PostgreSQL run); for `afterAll`. */
export function removeOwnTemplate() {
  if (pgliteTemplate && pgliteTemplate !== inject("pgliteTemplateDir")) {
    rmSync(pgliteTemplate, { recursive: true, force: true });
  }
  pgliteTemplate = null;
}

export async function migratedDatabase(driver: Driver): Promise<ScratchDatabase> {
  if (driver === "postgres") {
    return openScratchDatabase("postgres", {
      adminUrl: postgresUrl(),
      template: inject("pgTemplateDatabase"),
    });
  }
  pgliteTemplate ??= inject("pgliteTemplateDir") || null;
  if (!pgliteTemplate) {
    const dir = mkdtempSync(join(tmpdir(), "curate-archive-template-"));
    const handle = await openDatabase({ pgliteDir: dir });
    await handle.migrate();
    await handle.close();
    pgliteTemplate = dir;
  }
  return openScratchDatabase("pglite", { template: pgliteTemplate });
}

/**
 * A database of the driver under test migrated up to (and including) the migration whose hash is `hash` and no
 * further: where an archive written by that version of the schema is imported, whatever migrations came after.
 */
export async function databaseAtMigration(hash: string): Promise<ScratchDatabase> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  // drizzle's migrator names a migration by the SHA-256 of its SQL file.
  const hashOf = (tag: string) =>
    createHash("sha256")
      .update(readFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), "utf8"))
      .digest("hex");
  const last = journal.entries.findIndex((entry) => hashOf(entry.tag) === hash);
  if (last === -1) throw new Error(`no migration has the hash ${hash}`);
  const url = postgresUrl();
  // Migrating a fresh database takes seconds; at the newest migration the run's template is the same thing.
  if (last === journal.entries.length - 1) return migratedDatabase(url ? "postgres" : "pglite");
  const folder = mkdtempSync(join(tmpdir(), "curate-migrations-"));
  mkdirSync(join(folder, "meta"));
  const entries = journal.entries.slice(0, last + 1);
  for (const entry of entries)
    cpSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));

  const scratch = await openScratchDatabase(url ? "postgres" : "pglite", url ? { adminUrl: url } : {});
  const { connection } = scratch.handle;
  try {
    if (connection.driver === "pglite") {
      await migratePglite(drizzlePglite(connection.client), { migrationsFolder: folder });
    } else {
      const migrator = drizzleNodePg(connection.url);
      await migrateNodePg(migrator, { migrationsFolder: folder });
      await migrator.$client.end();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return scratch;
}
