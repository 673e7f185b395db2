import { join } from "node:path";
import type { Logger } from "pino";
import type { AppEnv } from "../config/env.ts";
import { openConfiguredDatabase } from "../server.ts";
import { exportArchive, importArchive } from "./archive.ts";

/** `curate export <file>`: the database `DATABASE_URL` (or the embedded one in `DATA_DIR`) and its uploads. */
export async function exportTo(env: AppEnv, file: string) {
  const handle = await openConfiguredDatabase(env);
  try {
    return await exportArchive(handle.db, join(env.DATA_DIR, "uploads"), file);
  } finally {
    await handle.close();
  }
}

/**
 * `curate import [--strict] <file>`: into the (empty) database `DATABASE_URL` names, migrated first; uploads into
 * `DATA_DIR`, staged there until the rows are committed. Configs holding raw credentials are imported quarantined,
 * or with `--strict` refuse the archive.
 */
export async function importFrom(env: AppEnv, file: string, options: { strict: boolean; logger: Logger }) {
  const handle = await openConfiguredDatabase(env);
  try {
    await handle.migrate();
    return await importArchive(handle.db, join(env.DATA_DIR, "uploads"), file, options);
  } finally {
    await handle.close();
  }
}
