import { once } from "node:events";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { is, type SQL, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../db/index.ts";
import { schema } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

/**
 * A whole Curate installation in one file, for backups and for moving from the embedded database to PostgreSQL
 * (README, "Backup, restore and moving to PostgreSQL"): gzip'd JSON lines — a header naming the schema's migration,
 * every table's rows as the database writes them in JSON (`row_to_json`), every uploaded file, and the counts the
 * import checks against.
 */
export const ARCHIVE_FORMAT = "curate-archive";
const ARCHIVE_VERSION = 1;
/** Rows per line of the file and per statement of the import. */
const PAGE_ROWS = 2000;

/**
 * Kept by the database's own triggers from the other tables (counters and statistics). They are written last and
 * restored as exported, after the tables that feed them, so the import's own trigger runs do not count twice.
 */
const DERIVED_TABLES = new Set([
  "site_counters",
  "submission_counts",
  "submission_day_counts",
  "feed_user_stats",
  "curator_stats",
  "curator_daily_stats",
  "curator_monthly_stats",
  "moderator_stats",
]);

interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** The last migration applied to the exported database: the importing one must be at the same. */
  migration: string;
  exportedAt: string;
}

export interface ArchiveSummary {
  tables: Record<string, number>;
  uploads: number;
}

/** The app's tables, each after the tables it references; the trigger-kept ones last. */
export function tablesInOrder(): string[] {
  const configs = (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableConfig(table));
  const dependsOn = new Map(
    configs.map((config) => [
      config.name,
      new Set(
        config.foreignKeys
          .map((key) => getTableConfig(key.reference().foreignTable).name)
          .filter((name) => name !== config.name),
      ),
    ]),
  );
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name)) return;
    if (path.has(name)) throw new Error(`foreign keys loop through ${name}`);
    path.add(name);
    for (const dependency of dependsOn.get(name) ?? []) visit(dependency, path);
    path.delete(name);
    ordered.push(name);
  };
  for (const name of [...dependsOn.keys()].sort()) visit(name, new Set());
  return [
    ...ordered.filter((name) => !DERIVED_TABLES.has(name)),
    ...ordered.filter((name) => DERIVED_TABLES.has(name)),
  ];
}

async function latestMigration(db: Database): Promise<string> {
  const [row] = await queryRows<{ hash: string }>(
    db,
    sql`select hash from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1`,
  );
  if (!row) throw new Error("the database has no migrations applied");
  return row.hash;
}

function writeLine(stream: NodeJS.WritableStream, line: string): Promise<void> | undefined {
  if (stream.write(`${line}\n`)) return undefined;
  return once(stream, "drain").then(() => undefined);
}

/**
 * Writes the archive of `db` and the files in `uploadsDir` to `file`. Run it with the server stopped (the embedded
 * database belongs to one process); on PostgreSQL the tables are read in one repeatable-read snapshot.
 */
export async function exportArchive(db: Database, uploadsDir: string, file: string): Promise<ArchiveSummary> {
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file));
  const summary: ArchiveSummary = { tables: {}, uploads: 0 };
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read`);
      const header: ArchiveHeader = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        migration: await latestMigration(tx),
        exportedAt: new Date().toISOString(),
      };
      await writeLine(gzip, JSON.stringify(header));
      for (const table of tablesInOrder()) {
        summary.tables[table] = 0;
        let after: string | null = null;
        for (;;) {
          // Paged by physical row address: no primary key needed, and every row once within the snapshot.
          const page: Array<{ at: string; row: string }> = await queryRows<{ at: string; row: string }>(
            tx,
            sql`select ctid::text as at, row_to_json(t)::text as row from ${sql.identifier(table)} t
              ${after ? sql`where ctid > ${after}::tid` : sql``} order by ctid limit ${PAGE_ROWS}`,
          );
          if (page.length === 0) break;
          await writeLine(
            gzip,
            `{"table":${JSON.stringify(table)},"rows":[${page.map((r) => r.row).join(",")}]}`,
          );
          summary.tables[table] += page.length;
          after = page[page.length - 1].at;
          if (page.length < PAGE_ROWS) break;
        }
      }
    });
    for (const name of existsSync(uploadsDir) ? readdirSync(uploadsDir).sort() : []) {
      const data = readFileSync(join(uploadsDir, name)).toString("base64");
      await writeLine(gzip, JSON.stringify({ upload: name, data }));
      summary.uploads++;
    }
    await writeLine(gzip, JSON.stringify({ end: summary }));
  } finally {
    gzip.end();
    await written;
  }
  return summary;
}

type ArchiveLine =
  | ArchiveHeader
  | { table: string; rows: unknown[] }
  | { upload: string; data: string }
  | { end: ArchiveSummary };

async function* archiveLines(file: string): AsyncGenerator<ArchiveLine> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) yield JSON.parse(line) as ArchiveLine;
}

export class ArchiveError extends Error {}

async function countRows(db: Database, table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row?.n ?? 0;
}

/** Serial columns continue after the imported ids, so new rows do not collide with old ones. */
async function resetSequences(db: Database) {
  const serials = await queryRows<{ table: string; column: string }>(
    db,
    sql`select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = 'public' and column_default like 'nextval(%'`,
  );
  for (const { table, column } of serials) {
    const name = `public.${table}`;
    const next: SQL = sql`(select coalesce(max(${sql.identifier(column)}), 0) + 1 from ${sql.identifier(table)})`;
    await db.execute(sql`select setval(pg_get_serial_sequence(${name}, ${column}), ${next}, false)`);
  }
}

/**
 * Restores an archive into `db`, which must be migrated to the archive's migration and hold no data of its own,
 * in one transaction; then writes the uploads into `uploadsDir` and checks every table's count against the
 * archive's. Anything amiss stops it with the database unchanged.
 */
export async function importArchive(db: Database, uploadsDir: string, file: string): Promise<ArchiveSummary> {
  const lines = archiveLines(file);
  let first: ArchiveHeader | undefined;
  try {
    first = (await lines.next()).value as ArchiveHeader | undefined;
  } catch {
    // Not gzip, or not JSON inside: the same answer as a wrong header.
    first = undefined;
  }
  if (first?.format !== ARCHIVE_FORMAT || first.version !== ARCHIVE_VERSION) {
    throw new ArchiveError(`${basename(file)} is not a Curate archive (version ${ARCHIVE_VERSION}).`);
  }
  const migration = await latestMigration(db);
  if (migration !== first.migration) {
    throw new ArchiveError(
      "The archive was made by another version of Curate than this one (their database migrations differ): import it with the version that exported it.",
    );
  }
  const known = new Set(tablesInOrder());
  for (const table of ["feeds", "submissions", "users"]) {
    if ((await countRows(db, table)) > 0) {
      throw new ArchiveError(
        `The target database already holds data (${table}): import into an empty database.`,
      );
    }
  }

  let summary: ArchiveSummary | null = null;
  const uploads: Array<{ name: string; data: string }> = [];
  await db.transaction(async (tx) => {
    const cleared = new Set<string>();
    for await (const line of lines) {
      if ("table" in line) {
        if (!known.has(line.table))
          throw new ArchiveError(`The archive holds an unknown table "${line.table}".`);
        if (DERIVED_TABLES.has(line.table) && !cleared.has(line.table)) {
          // What the triggers computed while the other tables went in gives way to the exported figures.
          await tx.execute(sql`delete from ${sql.identifier(line.table)}`);
          cleared.add(line.table);
        }
        const table = sql.identifier(line.table);
        await tx.execute(
          sql`insert into ${table} select * from json_populate_recordset(null::${table}, ${JSON.stringify(line.rows)}::json)`,
        );
      } else if ("upload" in line) {
        if (basename(line.upload) !== line.upload || line.upload.startsWith(".")) {
          throw new ArchiveError(`The archive names an upload outside the uploads folder: "${line.upload}".`);
        }
        uploads.push({ name: line.upload, data: line.data });
      } else if ("end" in line) {
        summary = line.end;
      }
    }
    if (!summary)
      throw new ArchiveError("The archive ends early: it was cut off while being written or copied.");
    for (const table of DERIVED_TABLES) {
      if (!cleared.has(table)) await tx.execute(sql`delete from ${sql.identifier(table)}`);
    }
    await resetSequences(tx);
    const complete: ArchiveSummary = summary;
    for (const [table, expected] of Object.entries(complete.tables)) {
      const found = await countRows(tx, table);
      if (found !== expected) {
        throw new ArchiveError(`Table ${table} has ${found} rows after the import, the archive ${expected}.`);
      }
    }
  });
  mkdirSync(uploadsDir, { recursive: true });
  for (const upload of uploads)
    writeFileSync(join(uploadsDir, upload.name), Buffer.from(upload.data, "base64"));
  const done = summary as ArchiveSummary | null;
  if (!done || uploads.length !== done.uploads) {
    throw new ArchiveError(`The archive lists ${done?.uploads ?? 0} uploads but holds ${uploads.length}.`);
  }
  return done;
}
