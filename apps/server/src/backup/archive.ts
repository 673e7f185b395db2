import { createHash } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { is, type SQL, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import pino, { type Logger } from "pino";
import type { Database } from "../db/index.ts";
import { schema } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { type QuarantineReport, quarantineStoredSecrets } from "../feeds/quarantine.ts";
import { readLines, writeLine } from "./lines.ts";
import { IMPORT_CHECKS, ImportReport } from "./report.ts";
import { type TableContract, tableContracts } from "./row-contracts.ts";

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
  "curator_weekly_stats",
  "moderator_stats",
  "curator_reputation",
  "approver_reputation",
]);

interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** The last migration applied to the exported database: the importing one must be at the same. */
  migration: string;
  exportedAt: string;
}

/** An uploaded file; `size` and `sha256` are in archives written since they were added, and checked when there. */
interface UploadLine {
  upload: string;
  size?: number;
  sha256?: string;
  data: string;
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
      const bytes = readFileSync(join(uploadsDir, name));
      const line: UploadLine = {
        upload: name,
        size: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        data: bytes.toString("base64"),
      };
      await writeLine(gzip, JSON.stringify(line));
      summary.uploads++;
    }
    await writeLine(gzip, JSON.stringify({ end: summary }));
  } finally {
    gzip.end();
    await written;
  }
  return summary;
}

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

export class ArchiveError extends Error {
  /** The pre-commit checks, when the import was refused by them. */
  readonly report?: ImportReport;

  constructor(message: string, report?: ImportReport) {
    super(message);
    this.report = report;
  }
}

export interface ImportOutcome {
  summary: ArchiveSummary;
  report: ImportReport;
}

/** How uploads are named by the app (uploads service, demo seed): the SHA-256 of their bytes, and a type. */
const CONTENT_ADDRESSED = /^([0-9a-f]{64})\.[a-z0-9]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSummary(value: unknown): value is ArchiveSummary {
  return (
    isObject(value) &&
    Number.isInteger(value.uploads) &&
    isObject(value.tables) &&
    Object.values(value.tables).every((count) => Number.isInteger(count))
  );
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The database's own words: drizzle wraps them with the statement and its parameters (the rows themselves). */
function databaseReason(error: unknown): string {
  let cause = error as { message?: unknown; detail?: unknown; cause?: unknown };
  while (cause.cause && typeof cause.cause === "object") cause = cause.cause as typeof cause;
  const detail = typeof cause.detail === "string" ? ` (${cause.detail})` : "";
  return `${String(cause.message)}${detail}`;
}

async function readHeader(lines: AsyncGenerator<string>, file: string, report: ImportReport) {
  report.ran(IMPORT_CHECKS.archive);
  const notArchive = `${basename(file)} is not a Curate archive (version ${ARCHIVE_VERSION}).`;
  let header: unknown;
  try {
    const first = await lines.next();
    header = first.done ? undefined : JSON.parse(first.value);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
      report.fail(IMPORT_CHECKS.archive, `${basename(file)} cannot be read: ${reason(error)}`);
      return null;
    }
    // Not gzip, not UTF-8 or not JSON inside: the same answer as a wrong header.
    header = undefined;
  }
  if (!isObject(header) || header.format !== ARCHIVE_FORMAT || header.version !== ARCHIVE_VERSION) {
    report.fail(IMPORT_CHECKS.archive, notArchive);
    return null;
  }
  return header as unknown as ArchiveHeader;
}

/**
 * The target's tables and their columns. An archive is imported by the version that wrote it, into a database at
 * its migration, which may lack tables and columns this code knows: the checks follow the target, not the code.
 */
async function targetColumns(db: Database): Promise<Map<string, Set<string>>> {
  const rows = await queryRows<{ table: string; column: string }>(
    db,
    sql`select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = 'public'`,
  );
  const tables = new Map<string, Set<string>>();
  for (const { table, column } of rows) tables.set(table, (tables.get(table) ?? new Set()).add(column));
  return tables;
}

async function checkTarget(db: Database, header: ArchiveHeader, uploadsDir: string, report: ImportReport) {
  report.ran(IMPORT_CHECKS.schemaVersion);
  const migration = await latestMigration(db).catch(() => null);
  if (migration !== header.migration) {
    report.fail(
      IMPORT_CHECKS.schemaVersion,
      "The archive was made by another version of Curate than this one (their database migrations differ): import it with the version that exported it.",
    );
  }
  report.ran(IMPORT_CHECKS.emptyTarget);
  const holding: string[] = [];
  const present = await targetColumns(db);
  for (const table of tablesInOrder().filter((name) => !DERIVED_TABLES.has(name) && present.has(name))) {
    const [row] = await queryRows<{ any: boolean }>(
      db,
      sql`select exists (select 1 from ${sql.identifier(table)}) as any`,
    );
    if (row?.any) holding.push(table);
  }
  if (holding.length > 0) {
    report.fail(
      IMPORT_CHECKS.emptyTarget,
      `The target database already holds data (in ${holding.join(", ")}): import into an empty database.`,
    );
  }
  report.ran(IMPORT_CHECKS.uploads);
  if (existsSync(uploadsDir) && !statSync(uploadsDir).isDirectory()) {
    report.fail(IMPORT_CHECKS.uploads, `The uploads folder ${uploadsDir} is a file, not a folder.`);
  }
}

/**
 * One pass over the archive's lines inside the import's transaction: rows are checked, then inserted while
 * nothing has failed (once something has, the transaction will be rolled back, and the rest is only checked, so
 * the report lists every kind of problem at once); uploads are checked and written to the staging folder.
 */
class Restore {
  private readonly tx: Database;
  private readonly report: ImportReport;
  private readonly staging: string;
  private readonly contracts: Map<string, TableContract>;
  private readonly known: Set<string>;
  private readonly cleared = new Set<string>();
  readonly rowsRead = new Map<string, number>();
  /** The uploads table's rows: each names a file the archive must hold. */
  private readonly uploadRows = new Map<string, { size: unknown; extension: unknown }>();
  readonly staged = new Set<string>();
  /** Every upload the archive holds and its size (null: refused), so a bad one is reported once, not as missing. */
  private readonly held = new Map<string, number | null>();
  summary: ArchiveSummary | null = null;
  private lineNumber = 1;

  constructor(
    tx: Database,
    report: ImportReport,
    staging: string,
    present: ReadonlyMap<string, ReadonlySet<string>>,
  ) {
    this.tx = tx;
    this.report = report;
    this.staging = staging;
    this.contracts = tableContracts(present);
    this.known = new Set(tablesInOrder().filter((table) => present.has(table)));
    for (const check of [IMPORT_CHECKS.rows, IMPORT_CHECKS.database, IMPORT_CHECKS.rowCounts])
      report.ran(check);
  }

  private get writing() {
    return !this.report.failed();
  }

  async read(lines: AsyncGenerator<string>) {
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await lines.next();
      } catch (error) {
        this.report.fail(
          IMPORT_CHECKS.archive,
          `The archive cannot be read past line ${this.lineNumber} (${reason(error)}): it was cut off or damaged after it was written.`,
        );
        return;
      }
      if (next.done) return;
      this.lineNumber++;
      if (!next.value.trim()) continue;
      if (this.summary) {
        this.report.fail(IMPORT_CHECKS.archive, `Line ${this.lineNumber} follows the archive's end line.`);
        return;
      }
      let line: unknown;
      try {
        line = JSON.parse(next.value);
      } catch (error) {
        this.report.fail(IMPORT_CHECKS.archive, `Line ${this.lineNumber} is not JSON (${reason(error)}).`);
        return;
      }
      await this.line(next.value, line);
    }
  }

  private async line(text: string, line: unknown) {
    if (isObject(line) && typeof line.table === "string" && Array.isArray(line.rows)) {
      await this.rows(text, line.table, line.rows);
    } else if (isObject(line) && typeof line.upload === "string" && typeof line.data === "string") {
      this.upload(line as unknown as UploadLine);
    } else if (isObject(line) && "end" in line) {
      if (isSummary(line.end)) this.summary = line.end;
      else
        this.report.fail(IMPORT_CHECKS.archive, `The end line (line ${this.lineNumber}) is not a summary.`);
    } else {
      this.report.fail(
        IMPORT_CHECKS.archive,
        `Line ${this.lineNumber} is neither rows, an upload nor the end.`,
      );
    }
  }

  private async rows(text: string, table: string, rows: unknown[]) {
    const contract = this.contracts.get(table);
    if (!contract || !this.known.has(table)) {
      this.report.fail(
        IMPORT_CHECKS.rows,
        `The archive holds an unknown table "${table}" (line ${this.lineNumber}).`,
      );
      return;
    }
    const before = this.rowsRead.get(table) ?? 0;
    rows.forEach((row, index) => {
      for (const problem of contract.problems(row)) {
        const key = isObject(row) ? ` (${contract.describeKey(row)})` : "";
        const field = problem.field ? `, ${problem.field}` : "";
        this.report.fail(
          IMPORT_CHECKS.rows,
          `${table} row ${before + index + 1}${key}${field}: ${problem.message}`,
        );
      }
      if (table === "uploads" && isObject(row) && typeof row.hash === "string") {
        this.uploadRows.set(row.hash, { size: row.size, extension: row.extension });
      }
    });
    this.rowsRead.set(table, before + rows.length);
    if (!this.writing) return;
    try {
      if (DERIVED_TABLES.has(table) && !this.cleared.has(table)) {
        // What the triggers computed while the other tables went in gives way to the exported figures.
        await this.tx.execute(sql`delete from ${sql.identifier(table)}`);
        this.cleared.add(table);
      }
      // The line's own text goes to the database, not a re-serialisation: numbers beyond JavaScript's precision
      // (bigints, numbers inside JSON documents) arrive exactly as they were exported.
      const target = sql.identifier(table);
      await this.tx.execute(
        sql`insert into ${target} select * from json_populate_recordset(null::${target}, ${text}::json -> 'rows')`,
      );
    } catch (error) {
      this.report.fail(
        IMPORT_CHECKS.database,
        `${table} (line ${this.lineNumber}): ${databaseReason(error)}`,
      );
    }
  }

  private upload(line: UploadLine) {
    const name = line.upload;
    const fail = (problem: string) => this.report.fail(IMPORT_CHECKS.uploads, `${name}: ${problem}`);
    if (!name || basename(name) !== name || name.startsWith(".")) {
      this.report.fail(
        IMPORT_CHECKS.uploads,
        `The archive names an upload outside the uploads folder: "${name}".`,
      );
      return;
    }
    if (this.held.has(name)) return fail("the archive holds it twice");
    this.held.set(name, null);
    if (!BASE64.test(line.data)) return fail("its data is not base64");
    const bytes = Buffer.from(line.data, "base64");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (line.size !== undefined && line.size !== bytes.length) {
      return fail(`it holds ${bytes.length} bytes, the archive lists ${line.size}`);
    }
    if (line.sha256 !== undefined && line.sha256 !== sha256)
      return fail("its bytes do not match its SHA-256");
    const addressed = CONTENT_ADDRESSED.exec(name)?.[1];
    if (addressed && addressed !== sha256) return fail("its bytes do not match the hash in its name");
    this.held.set(name, bytes.length);
    if (!this.writing) return;
    writeFileSync(join(this.staging, name), bytes);
    this.staged.add(name);
  }

  /** After the last line: the archive against its own summary, and the uploads against the uploads table. */
  checkCompleteness() {
    const summary = this.summary;
    if (!summary) {
      this.report.fail(
        IMPORT_CHECKS.archive,
        "The archive ends early: it was cut off while being written or copied.",
      );
      return;
    }
    for (const table of new Set([...Object.keys(summary.tables), ...this.rowsRead.keys()])) {
      const listed = summary.tables[table] ?? 0;
      const held = this.rowsRead.get(table) ?? 0;
      if (!this.known.has(table)) {
        this.report.fail(IMPORT_CHECKS.rowCounts, `The archive's summary lists an unknown table "${table}".`);
      } else if (held !== listed) {
        this.report.fail(
          IMPORT_CHECKS.rowCounts,
          `${table}: the archive holds ${held} rows, its summary lists ${listed}.`,
        );
      }
    }
    if (this.held.size !== summary.uploads) {
      this.report.fail(
        IMPORT_CHECKS.uploads,
        `The archive lists ${summary.uploads} uploads but holds ${this.held.size}.`,
      );
    }
    for (const [hash, row] of this.uploadRows) {
      const name = `${hash}.${row.extension}`;
      if (!this.held.has(name)) {
        this.report.fail(
          IMPORT_CHECKS.uploads,
          `${name}: the uploads table lists it, the archive does not hold it.`,
        );
      } else if (this.held.get(name) !== null && this.held.get(name) !== row.size) {
        this.report.fail(IMPORT_CHECKS.uploads, `${name}: its size differs from the uploads table's.`);
      }
    }
  }

  /** The database's own view once every row is in: trigger-kept tables as exported, ids continuing, counts. */
  async finish() {
    if (!this.writing) return;
    // Only the tables this database has: an archive of an older version is imported at its own migration.
    for (const table of DERIVED_TABLES) {
      if (this.known.has(table) && !this.cleared.has(table)) {
        await this.tx.execute(sql`delete from ${sql.identifier(table)}`);
      }
    }
    await resetSequences(this.tx);
    for (const [table, expected] of this.rowsRead) {
      const found = await countRows(this.tx, table);
      if (found !== expected) {
        this.report.fail(
          IMPORT_CHECKS.rowCounts,
          `Table ${table} has ${found} rows after the import, the archive ${expected}.`,
        );
      }
    }
  }
}

/** Moves the staged uploads into the uploads folder once the rows are committed. */
function moveIntoPlace(staged: string[], staging: string, uploadsDir: string) {
  let moved = 0;
  try {
    mkdirSync(uploadsDir, { recursive: true });
    for (const name of staged) {
      renameSync(join(staging, name), join(uploadsDir, name));
      moved++;
    }
  } catch (error) {
    throw new ArchiveError(
      `The rows were imported, but moving the uploads into ${uploadsDir} failed after ${moved} of ${staged.length} (${reason(error)}); the other ${staged.length - moved} were removed. Empty the database and import again once the uploads folder can take them.`,
    );
  }
}

/**
 * Restores an archive into `db`, which must be migrated to the archive's migration and hold no data of its own.
 * Every check runs before the one transaction commits (the report names them): the archive's header and schema
 * version, an empty target, each row against the column types and core contracts, each table's and the uploads'
 * counts against the archive's summary, each upload's size and hash, and the database's own constraints. The
 * uploads are written to a staging folder beside `uploadsDir` and moved in after the commit; a refused import
 * leaves the database and the uploads folder as they were.
 */
export interface ImportOptions {
  /** Refuse an archive whose feed or plugin configs hold what looks like a raw credential, instead of quarantining. */
  strict?: boolean;
  /** Where the quarantine's warning to rotate goes. */
  logger?: Logger;
}

/**
 * The secret scan over the restored configs, in the import's transaction (feeds/quarantine.ts): what it finds is
 * imported quarantined — hidden from everyone but its owners, not run — and named in the report, or, strictly,
 * refuses the import. A target at an older migration has no quarantine yet; its server scans at its next start.
 */
async function quarantineRestored(
  tx: Database,
  present: ReadonlyMap<string, ReadonlySet<string>>,
  report: ImportReport,
  options: ImportOptions,
) {
  if (!present.get("feeds")?.has("secret_findings") || !present.get("plugins")?.has("secret_findings"))
    return;
  report.ran(IMPORT_CHECKS.secrets);
  const found: QuarantineReport = await quarantineStoredSecrets(
    tx,
    options.logger ?? pino({ level: "silent" }),
  );
  const held = [
    ...found.feeds.map((feed) => ({ what: `feed "${feed.id}"`, owner: feed.owner, findings: feed.findings })),
    ...found.plugins.map((plugin) => ({
      what: `plugin "${plugin.name}"`,
      owner: plugin.owner,
      findings: plugin.findings,
    })),
  ];
  for (const { what, owner, findings } of held) {
    const where = findings.map((finding) => finding.path || "(the whole value)").join(", ");
    if (options.strict) {
      report.fail(IMPORT_CHECKS.secrets, `${what} holds what looks like a raw credential at ${where}.`);
    } else {
      report.notes.push(
        `Quarantined ${what}${owner ? ` of ${owner}` : ""}: what looks like a raw credential at ${where}. It is hidden from everyone but its owners and does not run until saved with {{PLACEHOLDER}}s; rotate the credential.`,
      );
    }
  }
}

export async function importArchive(
  db: Database,
  uploadsDir: string,
  file: string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const report = new ImportReport();
  const refusal = () => new ArchiveError(report.describeRefusal(), report);
  const lines = readLines(file);
  try {
    const header = await readHeader(lines, file, report);
    if (!header) throw refusal();
    await checkTarget(db, header, uploadsDir, report);
    if (report.failed()) throw refusal();

    let staging: string;
    try {
      // Beside the uploads folder, so on the same file system: moving a file in is a rename.
      const dataDir = dirname(resolve(uploadsDir));
      mkdirSync(dataDir, { recursive: true });
      staging = mkdtempSync(join(dataDir, ".import-staging-"));
    } catch (error) {
      report.fail(IMPORT_CHECKS.uploads, `No staging folder beside ${uploadsDir}: ${reason(error)}`);
      throw refusal();
    }
    try {
      const restored = await db.transaction(async (tx) => {
        const present = await targetColumns(tx);
        const restore = new Restore(tx, report, staging, present);
        await restore.read(lines);
        restore.checkCompleteness();
        await restore.finish();
        if (!report.failed()) await quarantineRestored(tx, present, report, options);
        if (report.failed() || !restore.summary) throw refusal();
        return { staged: [...restore.staged], summary: restore.summary };
      });
      moveIntoPlace(restored.staged, staging, uploadsDir);
      return { summary: restored.summary, report };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  } finally {
    await lines.return(undefined);
  }
}
