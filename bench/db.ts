import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../apps/server/src/db/index.ts";

export type Driver = "pglite" | "postgres";

/** The PostgreSQL server benchmarks create their throw-away databases on. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** An empty, unmigrated database on the driver (named `name` on PostgreSQL), and how to throw it away. */
export async function openFreshDatabase(
  driver: Driver,
  name: string,
): Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }> {
  if (driver === "postgres") {
    await adminQuery(`drop database if exists ${name} with (force)`);
    await adminQuery(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ url: url.toString() });
    return {
      handle,
      dispose: async () => {
        await handle.close();
        await adminQuery(`drop database if exists ${name} with (force)`);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const handle = await openDatabase({ pgliteDir: dir });
  return {
    handle,
    dispose: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
