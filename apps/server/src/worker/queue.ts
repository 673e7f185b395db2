import { fromPglite, PgBoss } from "pg-boss";
import type { DatabaseHandle } from "../db/index.ts";

export interface QueueSettings {
  /** How often pg-boss checks heartbeats, expiry and schedules. */
  monitorIntervalSeconds: number;
}

/**
 * The one pg-boss instance of a worker process, on the app's own database: the embedded PGlite (sharing its single
 * connection) or PostgreSQL (its own small pool, with LISTEN/NOTIFY so workers wake at once).
 */
export function createQueueClient(database: DatabaseHandle, settings: QueueSettings): PgBoss {
  const common = {
    useListenNotify: true,
    superviseIntervalSeconds: settings.monitorIntervalSeconds,
    monitorIntervalSeconds: settings.monitorIntervalSeconds,
  };
  const options =
    database.connection.driver === "pglite"
      ? { ...common, db: fromPglite(database.connection.client), backend: "pglite" }
      : { ...common, connectionString: database.connection.url, max: 4, application_name: "curate-worker" };
  return new PgBoss(options as ConstructorParameters<typeof PgBoss>[0]);
}

/**
 * A pg-boss client that only sends jobs, for a process that answers requests but runs no workers (the fediverse's
 * inbox, decision 0037): no supervision, schedules, LISTEN or schema upgrades (the workers install and upgrade the
 * queue's tables), and on PostgreSQL a pool of two.
 */
export function createEnqueueOnlyClient(database: DatabaseHandle): PgBoss {
  const common = { supervise: false, schedule: false, migrate: false, useListenNotify: false };
  const options =
    database.connection.driver === "pglite"
      ? { ...common, db: fromPglite(database.connection.client), backend: "pglite" }
      : { ...common, connectionString: database.connection.url, max: 2, application_name: "curate-api" };
  return new PgBoss(options as ConstructorParameters<typeof PgBoss>[0]);
}

/** Installs or upgrades the queue's tables, so a template database carries them ready-made. */
export async function installQueue(database: DatabaseHandle): Promise<void> {
  const boss = createQueueClient(database, { monitorIntervalSeconds: 60 });
  await boss.start();
  await boss.stop({ graceful: false, timeout: 1000 });
}
