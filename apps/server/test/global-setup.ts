import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/index.ts";
import { installQueue } from "../src/worker/queue.ts";
import { withDatabase } from "./databases.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite folder each test file copies (embedded driver). */
    pgliteTemplateDir: string;
    /** Name of a migrated template database on TEST_DATABASE_URL's server (PostgreSQL driver). */
    pgTemplateDatabase: string;
  }
}

export const PG_TEMPLATE_DB = `curate_test_template_${process.pid}`;

/** Migrates once (the app's tables and the queue's); every test file then starts from a copy of it. */
export default async function setup(project: TestProject) {
  // The project's own setting (vitest.config.ts), not this process's: `api` runs on PGlite even when the run has a
  // PostgreSQL server for `api-postgres`.
  const url = (project.config.env as Record<string, string | undefined>).TEST_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${PG_TEMPLATE_DB}`);
    await admin.query(`create database ${PG_TEMPLATE_DB}`);
    const templateUrl = withDatabase(url, PG_TEMPLATE_DB);
    const handle = await openDatabase({ url: templateUrl });
    await handle.migrate();
    await installQueue(handle);
    await handle.close();
    project.provide("pgTemplateDatabase", PG_TEMPLATE_DB);
    project.provide("pgliteTemplateDir", "");
    return async () => {
      await admin.query(`drop database if exists ${PG_TEMPLATE_DB} with (force)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "curate-template-"));
  const handle = await openDatabase({ pgliteDir: dir });
  await handle.migrate();
  await installQueue(handle);
  await handle.close();
  project.provide("pgliteTemplateDir", dir);
  project.provide("pgTemplateDatabase", "");
  return () => rmSync(dir, { recursive: true, force: true });
}
