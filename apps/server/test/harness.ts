import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import pg from "pg";
import { inject } from "vitest";
import { type App, createApp } from "../src/app.ts";
import { type AppEnv, loadEnv } from "../src/config/env.ts";
import { type Database, type DatabaseHandle, openDatabase } from "../src/db/index.ts";
import { createIntake, type Intake } from "../src/intake/runtime.ts";
import { createLogger } from "../src/logger.ts";
import { withDatabase } from "./global-setup.ts";

export interface TestServer {
  app: App;
  intake: Intake;
  baseUrl: string;
  db: Database;
  database: DatabaseHandle;
  env: AppEnv;
  /** fetch against the running app, path relative to its base URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** fetch + JSON body; tests assert on its shape, so it is left loosely typed. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions, not types
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

/** A fresh copy of the migrated template database, on the driver this run tests. */
export async function freshDatabase(): Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const pgTemplate = inject("pgTemplateDatabase");
  if (url && pgTemplate) {
    const name = `curate_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${pgTemplate}`);
    const handle = await openDatabase({ url: withDatabase(url, name) });
    return {
      handle,
      dispose: async () => {
        await handle.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "curate-db-"));
  cpSync(inject("pgliteTemplateDir"), dir, { recursive: true });
  const handle = await openDatabase({ pgliteDir: dir });
  return {
    handle,
    dispose: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the real app on an ephemeral port over a fresh database; tests talk to it over HTTP. */
export async function startTestServer(envOverrides: Record<string, string> = {}): Promise<TestServer> {
  const { handle, dispose } = await freshDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "curate-data-"));
  // Tests write through the database directly as well as the API, so the read cache is off unless a test asks.
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "silent",
    READ_CACHE_TTL_MS: "0",
    ...envOverrides,
  });
  const logger = createLogger(env.LOG_LEVEL);
  const intake = createIntake(handle.db, env, logger);
  const app = createApp({ database: handle, env, logger, version: "test", intake });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init);
  return {
    app,
    intake,
    baseUrl,
    db: handle.db,
    database: handle,
    env,
    request,
    async json<T>(path: string, init?: RequestInit) {
      const response = await request(path, init);
      return { status: response.status, body: (await response.json()) as T, headers: response.headers };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A response's JSON body, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are checked by assertions, not types
export const readJson = (response: Response): Promise<any> => response.json();
