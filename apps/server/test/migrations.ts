import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { type DatabaseHandle, MIGRATIONS_FOLDER } from "../src/db/index.ts";

/**
 * A copy (under `workDir`) of the migrations folder as it was before the migration whose tag ends with `suffix`, so
 * a test can fill a database the way the code before that migration wrote it. Found by suffix, so renumbering the
 * migration does not break its test.
 */
export function migrationsBefore(workDir: string, suffix: string): string {
  const folder = join(workDir, "drizzle");
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith(suffix));
  if (at <= 0) throw new Error(`no migration ending in ${suffix} after the first one in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/** Applies the migrations in `migrationsFolder` that the database has not run yet, on either driver. */
export async function migrateTo(handle: DatabaseHandle, migrationsFolder: string) {
  if (handle.connection.driver === "pglite") {
    await migratePglite(drizzlePglite(handle.connection.client), { migrationsFolder });
    return;
  }
  const pool = new pg.Pool({ connectionString: handle.connection.url, max: 1 });
  try {
    await migrateNodePg(drizzleNodePg(pool), { migrationsFolder });
  } finally {
    await pool.end();
  }
}
