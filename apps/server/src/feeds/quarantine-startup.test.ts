import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openScratchDatabase } from "../../test/databases.ts";
import { insertFeed } from "../../test/factories.ts";
import { nearSecretKey, newKey } from "../../test/near.ts";
import { loadEnv } from "../config/env.ts";
import { type DatabaseHandle, openDatabase } from "../db/index.ts";
import { type RunningServer, startServer } from "../server.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A database the test writes to before the server starts on it: a copy of the migrated template in a data folder
 * (PGlite, opened by one process at a time, so the test closes it first) or a database on the PostgreSQL server.
 */
async function databaseBeforeStart(dataDir: string) {
  if (postgresUrl) {
    const scratch = await openScratchDatabase("postgres", {
      adminUrl: postgresUrl,
      template: inject("pgTemplateDatabase"),
    });
    cleanups.push(() => scratch.dispose());
    const url = (scratch.handle.connection as { url: string }).url;
    return {
      handle: scratch.handle,
      env: { DATABASE_URL: url },
      role: "api" as const,
      release: async () => {},
    };
  }
  cpSync(inject("pgliteTemplateDir"), join(dataDir, "pglite"), { recursive: true });
  const handle: DatabaseHandle = await openDatabase({ pgliteDir: join(dataDir, "pglite") });
  return { handle, env: {}, role: "all" as const, release: () => handle.close() };
}

describe("starting the server", () => {
  it("hides feeds whose stored config holds a raw credential, and tells the operator to rotate it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "curate-quarantine-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const database = await databaseBeforeStart(dataDir);
    const key = nearSecretKey(newKey()).slice("ed25519:".length);
    // Stored as the code before the scan knew an unprefixed NEAR key allowed it.
    await insertFeed(database.handle.db, {
      id: "keyleak",
      createdBy: "owner.near",
      config: { id: "keyleak", name: "Key leak", description: "d", signer: key },
    });
    await insertFeed(database.handle.db, { id: "keyclean", createdBy: "owner.near" });
    await database.release();

    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()));
          done();
        },
      }),
    );
    const env = loadEnv({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO_DATA: "false",
      READ_CACHE_TTL_MS: "0",
      INTAKE_INTERVAL_MS: "3600000",
      ...database.env,
    });
    const running: RunningServer = await startServer(env, logger, database.role);
    cleanups.push(() => running.close());
    const base = running.url?.replace("localhost", "127.0.0.1");

    const warnings = lines.filter((line) => line.level === 40 && String(line.msg).includes("rotate"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ feeds: [{ id: "keyleak", owner: "owner.near", paths: ["signer"] }] });
    expect(JSON.stringify(lines)).not.toContain(key);
    expect((await fetch(`${base}/api/feeds/keyleak`)).status).toBe(404);
    expect((await fetch(`${base}/api/feeds/keyclean`)).status).toBe(200);
    // A whole server (with its worker, on PGlite) starts here: more than the usual time on a busy machine.
  });
});
