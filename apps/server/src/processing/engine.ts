import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/index.ts";
import { processingJobs } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { runProcessingJob } from "./runner.ts";
import type { Reservations, RunnerDeps, RunResult } from "./shared.ts";

export const PROCESSING_QUEUE = "curate-processing";
/** The channel a trigger on processing_jobs notifies when a request is written (migration 0005). */
export const PROCESSING_REQUESTED_CHANNEL = "curate_processing_requested";

const RELAY_BATCH = 500;
const RETRY_BASE_MS = 2000;
const RETRY_MAX_MS = 5 * 60_000;

/** 2 s, 4 s, 8 s … up to 5 min, with a little jitter so retries of many jobs spread out. */
export function retryBackoffMs(attempts: number): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
const RELAY_FLOOR_MS = 1000;
/** A job sent for later is looked for this long after it falls due, so the database's clock has passed it too. */
const WAKE_MARGIN_MS = 50;

export interface EngineSettings {
  /** Jobs one worker process runs at once. */
  concurrency: number;
  /** A worker that stops sending heartbeats this long is taken for dead and its job handed to another. */
  heartbeatSeconds: number;
}

export interface ProcessingEngine {
  /** Relays the outbox into the queue now (besides the notification and the 1 s floor). */
  relayNow(): void;
  /** Jobs this process runs now (its heartbeat reports them). */
  running(): number;
  stop(): Promise<void>;
}

interface QueueJob {
  id: string;
  /** `reservations`: the send slots a job waiting for its channel's turn holds. */
  data: { jobId: string; reservations?: Reservations };
  retryCount: number;
  retryLimit: number;
}

/**
 * The queue job's id for a relay of a processing job: its own id the first time, so a relay repeated after a crash
 * adds nothing; after the job waited in the outbox for a scheduled slot, an id of that return (the queue keeps
 * earlier ids for a day and would take the same one for a repeat).
 */
export function queueJobId(jobId: string, parkings: number): string {
  if (parkings === 0) return jobId;
  const hex = createHash("sha256").update(`${jobId}\u0000${parkings}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Calls `task` whenever asked, never twice at once; asks made while it runs make one more run after it. */
function coalesced(task: () => Promise<void>) {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = task().finally(() => {
      running = null;
      if (again) {
        again = false;
        void run();
      }
    });
    return running;
  };
  return { run, idle: () => running ?? Promise.resolve() };
}

/**
 * The processing engine (decision 0009): pending `processing_jobs` rows are the outbox, relayed into a pg-boss
 * queue on the app's own database; workers take jobs from it with bounded concurrency, pg-boss's retries with
 * backoff carry the retryable failures, and its heartbeats hand the job of a worker that died to another.
 */
export async function startProcessingEngine(
  boss: PgBoss,
  database: DatabaseHandle,
  runner: RunnerDeps,
  settings: EngineSettings,
  logger: Logger,
): Promise<ProcessingEngine> {
  const { db } = database;
  await boss.createQueue(PROCESSING_QUEUE, {
    notify: true,
    retryLimit: Math.max(0, runner.maxAttempts - 1),
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 60 * 60,
    heartbeatSeconds: settings.heartbeatSeconds,
    deleteAfterSeconds: 24 * 60 * 60,
  } as Parameters<PgBoss["createQueue"]>[1]);

  /**
   * Moves up to a batch of outbox rows into the queue. On PostgreSQL an advisory lock lets one worker relay at a
   * time (the others' relays skip); PGlite has one process and one connection, so no lock is needed there.
   */
  const relayBatch = async (): Promise<number> => {
    const move = async (tx: typeof db) => {
      const rows = await tx
        .select({ id: processingJobs.id, parkings: processingJobs.parkings })
        .from(processingJobs)
        .where(
          and(
            isNull(processingJobs.queuedAt),
            eq(processingJobs.status, "pending"),
            // An approval inside its undo window stays here until the window closes (the 1 s floor looks again).
            or(isNull(processingJobs.notBefore), lte(processingJobs.notBefore, sql`now()`)),
          ),
        )
        .orderBy(asc(processingJobs.createdAt))
        .limit(RELAY_BATCH);
      if (rows.length === 0) return 0;
      // The queue job's id is the processing job's, so a relay repeated after a crash adds nothing.
      await boss.insert(
        PROCESSING_QUEUE,
        rows.map((row) => ({ id: queueJobId(row.id, row.parkings), data: { jobId: row.id } })),
      );
      await tx
        .update(processingJobs)
        .set({ queuedAt: sql`now()` })
        .where(
          inArray(
            processingJobs.id,
            rows.map((row) => row.id),
          ),
        );
      return rows.length;
    };
    if (database.driver !== "postgres") return move(db);
    return db.transaction(async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(hashtext('curate-processing-relay')) as locked`,
      );
      return lock?.locked ? move(tx) : 0;
    });
  };

  let stopped = false;
  const relay = coalesced(async () => {
    if (stopped) return;
    try {
      while ((await relayBatch()) === RELAY_BATCH) {
        // A full batch: more may be waiting.
      }
    } catch (error) {
      logger.warn({ err: error }, "could not relay processing requests; retrying shortly");
    }
  });

  const stopListening = await database.listen(PROCESSING_REQUESTED_CHANNEL, () => void relay.run());
  const floor = setInterval(() => void relay.run(), RELAY_FLOOR_MS);
  floor.unref();
  void relay.run();

  let running = 0;
  const handle = async (
    job: QueueJob,
  ): Promise<{ id: string; status: "completed" | "failed"; output?: object }> => {
    let result: RunResult;
    running++;
    try {
      result = await runProcessingJob(runner, job.data.jobId, {
        lastChance: job.retryCount >= job.retryLimit,
        reservations: job.data.reservations,
      });
    } catch (error) {
      // The database went away mid-job or similar: the queue retries it with backoff, and the resume skips
      // whatever already succeeded.
      logger.warn({ err: error, jobId: job.data.jobId }, "processing job interrupted; will retry");
      return { id: job.id, status: "failed", output: { message: String(error) } };
    } finally {
      running--;
    }
    if (result.kind === "finished") {
      runner.telemetry.metrics.countFinishedJob(result.jobKind, result.status);
      logger.info({ jobId: job.data.jobId, status: result.status }, "processing job finished");
    }
    if (result.kind === "retry-later") {
      // Our attempt counter bounds retries; the wait is the longer of the service's ask and an exponential backoff
      // (none for a job only waiting for its channel's turn).
      const delayMs =
        result.attempts > 0
          ? Math.max(result.retryAfterMs, retryBackoffMs(result.attempts))
          : result.retryAfterMs;
      logger.info(
        { jobId: job.data.jobId, reason: result.reason, delayMs },
        "processing job will be retried",
      );
      await boss.send(
        PROCESSING_QUEUE,
        { jobId: job.data.jobId, reservations: result.reservations },
        { startAfter: new Date(Date.now() + delayMs) },
      );
      wakeWhenDue(delayMs);
      return { id: job.id, status: "completed", output: { retryInMs: delayMs } };
    }
    if (result.kind === "parked") {
      logger.info(
        { jobId: job.data.jobId, until: new Date(result.until).toISOString() },
        "processing job waits for its scheduled slot",
      );
      return { id: job.id, status: "completed", output: { parkedUntil: result.until } };
    }
    if (result.kind === "skipped" && result.reason === "held") {
      return { id: job.id, status: "failed", output: { message: "held by another worker" } };
    }
    return { id: job.id, status: "completed", output: result };
  };

  /**
   * A job sent for later wakes no one (NOTIFY fires only for jobs runnable now), so without this it would wait for
   * the next relaxed poll after it falls due: seconds a channel's turn never asked for. This worker looks again
   * when it is due; any other worker may take it first, which is as good.
   */
  const wakeTimers = new Set<NodeJS.Timeout>();
  let workerId: string | null = null;
  const wakeWhenDue = (delayMs: number) => {
    const timer = setTimeout(() => {
      wakeTimers.delete(timer);
      if (workerId && !stopped) boss.notifyWorker(workerId);
    }, delayMs + WAKE_MARGIN_MS);
    timer.unref();
    wakeTimers.add(timer);
  };

  workerId = await boss.work(
    PROCESSING_QUEUE,
    {
      // Two pollers, each taking a batch and running it at once: a slow step holds one batch, not the worker,
      // and full batches are followed at once by the next (burst).
      batchSize: Math.max(2, Math.ceil(settings.concurrency / 2)),
      burstWhenBatchFull: true,
      localConcurrency: 2,
      includeMetadata: true,
      perJobResults: true,
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 5,
    } as never,
    (async (jobs: QueueJob[]) => Promise.all(jobs.map(handle))) as never,
  );

  return {
    relayNow: () => void relay.run(),
    running: () => running,
    async stop() {
      stopped = true;
      clearInterval(floor);
      for (const timer of wakeTimers) clearTimeout(timer);
      await stopListening().catch(() => {});
      await relay.idle();
    },
  };
}
