import { and, inArray, isNull, lt, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/index.ts";
import { bulkRuns } from "../db/schema.ts";
import { BULK_RUN_REQUESTED_CHANNEL, failBulkRun, runBulkRun } from "../moderation/bulk-runs.ts";

export const BULK_RUN_QUEUE = "curate-bulk-decisions";
/** Attempts of one run: each resumes where the last stopped (a worker stopping or dying, a lost database). */
const BULK_RUN_RETRIES = 20;
const RELAY_FLOOR_MS = 2000;
/**
 * A run unfinished and untouched this long lost its queue job (every attempt spent while workers died, say): it is
 * queued again under a new job id. Safe even if its old attempt were alive: chunks lock their items.
 */
const STALE_RUN_MINUTES = 15;

interface QueueJob {
  id: string;
  data: { runId: string };
  retryCount: number;
  retryLimit: number;
  /** Aborted when pg-boss finds this worker's claim on the job gone (its heartbeat lapsed). */
  signal?: AbortSignal;
}

export interface BulkRunEngine {
  relayNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Background bulk decisions on the worker's pg-boss engine: started runs (rows of bulk_runs not yet queued) are
 * relayed into a queue under their own id, so a relay repeated after a crash adds nothing; a worker takes one and
 * decides it chunk by chunk. A worker that stops hands the run back between chunks (retried at once by whichever
 * worker is up); one that dies stops sending heartbeats and pg-boss hands its run to another. Either way the next
 * attempt resumes at the first undecided post.
 */
export async function startBulkRunEngine(
  boss: PgBoss,
  database: DatabaseHandle,
  settings: { heartbeatSeconds: number; chunkPauseMs: number },
  logger: Logger,
): Promise<BulkRunEngine> {
  const { db } = database;
  await boss.createQueue(BULK_RUN_QUEUE, {
    retryLimit: BULK_RUN_RETRIES,
    retryDelay: 1,
    retryBackoff: false,
    expireInSeconds: 60 * 60,
    heartbeatSeconds: settings.heartbeatSeconds,
    deleteAfterSeconds: 24 * 60 * 60,
  } as Parameters<PgBoss["createQueue"]>[1]);

  let stopping = false;
  let relaying: Promise<void> | null = null;
  const relayOnce = async () => {
    const rows = await db
      .select({ id: bulkRuns.id })
      .from(bulkRuns)
      .where(and(isNull(bulkRuns.queuedAt), inArray(bulkRuns.state, ["queued", "running"])))
      .limit(100);
    const stale = await db
      .update(bulkRuns)
      .set({ updatedAt: sql`now()` })
      .where(
        and(
          inArray(bulkRuns.state, ["queued", "running"]),
          sql`${bulkRuns.queuedAt} is not null`,
          lt(bulkRuns.updatedAt, sql`now() - make_interval(mins => ${STALE_RUN_MINUTES})`),
        ),
      )
      .returning({ id: bulkRuns.id });
    for (const run of stale) {
      logger.warn({ runId: run.id }, "bulk decision untouched for long: queued again");
      await boss.send(BULK_RUN_QUEUE, { runId: run.id });
    }
    if (rows.length === 0) return;
    await boss.insert(
      BULK_RUN_QUEUE,
      rows.map((row) => ({ id: row.id, data: { runId: row.id } })),
    );
    await db
      .update(bulkRuns)
      .set({ queuedAt: sql`now()` })
      .where(
        inArray(
          bulkRuns.id,
          rows.map((row) => row.id),
        ),
      );
  };
  const relay = (): Promise<void> => {
    if (stopping) return Promise.resolve();
    relaying ??= relayOnce()
      .catch((error) => logger.warn({ err: error }, "could not relay bulk decisions; retrying shortly"))
      .finally(() => {
        relaying = null;
      });
    return relaying;
  };

  const stopListening = await database.listen(BULK_RUN_REQUESTED_CHANNEL, () => void relay());
  const floor = setInterval(() => void relay(), RELAY_FLOOR_MS);
  floor.unref();
  await relay();

  const handle = async (job: QueueJob) => {
    const { runId } = job.data;
    if (stopping) return { id: job.id, status: "failed" as const, output: { message: "worker stopping" } };
    try {
      const result = await runBulkRun(db, runId, {
        shouldStop: () => stopping || job.signal?.aborted === true,
        chunkPauseMs: settings.chunkPauseMs,
      });
      if (result === "stopped") {
        logger.info({ runId }, "bulk decision handed back: the worker is stopping");
        return { id: job.id, status: "failed" as const, output: { message: "worker stopping" } };
      }
      logger.info({ runId }, "bulk decision finished");
      return { id: job.id, status: "completed" as const };
    } catch (error) {
      logger.warn({ err: error, runId }, "bulk decision interrupted; will resume");
      if (job.retryCount >= job.retryLimit) {
        await failBulkRun(db, runId, `Stopped after ${job.retryCount + 1} attempts: ${String(error)}`).catch(
          () => {},
        );
      }
      return { id: job.id, status: "failed" as const, output: { message: String(error) } };
    }
  };

  await boss.work(
    BULK_RUN_QUEUE,
    {
      batchSize: 1,
      includeMetadata: true,
      perJobResults: true,
      pollingIntervalSeconds: 1,
    } as never,
    (async (jobs: QueueJob[]) => Promise.all(jobs.map(handle))) as never,
  );

  return {
    relayNow: relay,
    async stop() {
      stopping = true;
      clearInterval(floor);
      await stopListening().catch(() => {});
      await relaying;
    },
  };
}
