import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";

export interface HeartbeatOptions {
  role: string;
  version: string;
  concurrency: number;
  intervalSeconds: number;
  /** Jobs this process runs now. */
  running(): number;
  clock?: () => Date;
}

/**
 * This worker process's row in `worker_heartbeats`, written at start and every interval, deleted at a clean stop;
 * rows of processes that died without stopping go once their heartbeat is a day old.
 */
export async function startHeartbeat(db: Database, options: HeartbeatOptions, logger: Logger) {
  const id = randomUUID();
  const clock = options.clock ?? (() => new Date());
  const startedAt = clock().toISOString();
  const beat = async () => {
    const at = clock();
    await db.execute(
      sql`insert into worker_heartbeats (id, host, pid, role, version, running, concurrency, started_at, last_seen_at)
        values (${id}, ${hostname().slice(0, 255)}, ${process.pid}, ${options.role}, ${options.version},
          ${options.running()}, ${options.concurrency}, ${startedAt}, ${at.toISOString()})
        on conflict (id) do update set running = excluded.running, last_seen_at = excluded.last_seen_at`,
    );
    await db.execute(
      sql`delete from worker_heartbeats where last_seen_at < ${new Date(at.getTime() - 86_400_000).toISOString()}`,
    );
  };
  await beat().catch((error) => logger.warn({ err: error }, "could not write the worker's heartbeat"));
  const timer = setInterval(
    () => void beat().catch((error) => logger.warn({ err: error }, "could not write the worker's heartbeat")),
    options.intervalSeconds * 1000,
  );
  timer.unref();
  return {
    id,
    beat,
    async stop() {
      clearInterval(timer);
      await db.execute(sql`delete from worker_heartbeats where id = ${id}`).catch(() => {});
    },
  };
}
