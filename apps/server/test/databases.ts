import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../src/db/index.ts";

export type Driver = "pglite" | "postgres";

export interface ScratchDatabase {
  handle: DatabaseHandle;
  dispose(): Promise<void>;
}

export interface ScratchOptions {
  /** PostgreSQL: the server's admin URL (any database on it); the scratch database is created beside it. */
  adminUrl?: string;
  /** PostgreSQL: the scratch database's name (random when absent); an existing one is dropped first. */
  name?: string;
  /** Start from a copy of this migrated template: a database name (PostgreSQL) or a PGlite folder. */
  template?: string;
  /** PGlite: the buffer pool; TEST_SHARED_BUFFERS unless set (benches set the server's own). */
  sharedBuffers?: string;
}

/**
 * The embedded server's pool (PostgreSQL's default) is 128 MB, which PGlite clears on every open: ~0.2 s of CPU of an
 * open's ~0.35 s. A test's database is a copy of the ~40 MB template; with 32 MB the API files on PGlite took
 * 235–312 s of CPU (mean 266 s over four runs) instead of 271–333 s (mean 296 s over three), while smaller pools
 * slowed queries more than they saved (12 MB: 288 s).
 */
export const TEST_SHARED_BUFFERS = "32MB";

/** What the server runs the embedded database with, for benches that measure it. */
export const SERVER_SHARED_BUFFERS = "128MB";

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(adminUrl: string, text: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function postgresReachable(adminUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * A throw-away database for one test file or benchmark: empty, or a copy of a migrated template, on either
 * driver. Tests and benches both start from here, so they exercise the same drivers the same way.
 */
export async function openScratchDatabase(
  driver: Driver,
  options: ScratchOptions = {},
): Promise<ScratchDatabase> {
  if (driver === "postgres") {
    const adminUrl = options.adminUrl ?? "postgres://postgres@127.0.0.1:5432/postgres";
    const name = options.name ?? `curate_scratch_${randomBytes(6).toString("hex")}`;
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    await adminQuery(
      adminUrl,
      `create database ${name}${options.template ? ` template ${options.template}` : ""}`,
    );
    const handle = await openDatabase({ url: withDatabase(adminUrl, name) });
    return {
      handle,
      dispose: async () => {
        await handle.close();
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `${options.name ?? "curate-db"}-`));
  if (options.template) cpSync(options.template, dir, { recursive: true });
  const handle = await openDatabase({
    pgliteDir: dir,
    sharedBuffers: options.sharedBuffers ?? TEST_SHARED_BUFFERS,
  });
  return {
    handle,
    dispose: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
