import type { PgBoss } from "pg-boss";
import type { Logger } from "pino";
import { pruneTokenUses } from "../api-tokens/service.ts";
import { createTelegramBotApi } from "../clients/telegram-bot.ts";
import { type DeliveryPass, deliverPending } from "../email/delivery.ts";
import { createMailer } from "../email/mailer.ts";
import { deliverDue, type FediverseDeliveryPass, pruneDeliveries } from "../fediverse/delivery.ts";
import { createFediverse } from "../fediverse/federation.ts";
import { sweepExpiredKv } from "../fediverse/kv.ts";
import { FEDIVERSE_INBOX_QUEUE, PgBossMessageQueue } from "../fediverse/queue.ts";
import { sendActorDeletes } from "../fediverse/service.ts";
import { reevaluateStandings } from "../governance/trust.ts";
import type { Intake } from "../intake/runtime.ts";
import { runIntakeTick } from "../intake/tick.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { pruneLimits } from "../limits/service.ts";
import { logSigner } from "../moderation-log/keys.ts";
import { checkAllLogs, signHeads } from "../moderation-log/service.ts";
import { checkAlerts } from "../operations/alerts.ts";
import { startHeartbeat } from "../operations/heartbeats.ts";
import type { LogSelfCheck } from "../operations/log-check.ts";
import { type ProcessingEngine, startProcessingEngine } from "../processing/engine.ts";
import { scheduleDueRecaps } from "../processing/recaps.ts";
import { type RunnerDepsOptions, runnerDeps } from "../processing/runner-deps.ts";
import { wakeDueSends } from "../processing/schedule.ts";
import { type ReminderPass, sendQueueReminders } from "../queues/reminders.ts";
import { backfillReputation } from "../reputation/backfill.ts";
import { refreshMedians } from "../reputation/service.ts";
import { VERSION } from "../version.ts";
import { type BulkRunEngine, startBulkRunEngine } from "./bulk-runs.ts";
import { createQueueClient } from "./queue.ts";

export interface WorkerHost {
  boss: PgBoss;
  engine: ProcessingEngine;
  /** Background bulk decisions ("Select all N matching" beyond the cap of one call). */
  bulkRuns: BulkRunEngine;
  /** Runs one intake pass now (mentions, then feed sources), as the scheduled one does. */
  runIntakeNow(): Promise<void>;
  /** Looks for due recaps now, as the scheduled tick does; answers how many runs it made. */
  runRecapsNow(): Promise<number>;
  /** Runs the alert check now, as the scheduled one does (at the worker's clock). */
  runAlertsNow(): Promise<Awaited<ReturnType<typeof checkAlerts>>>;
  /** Writes this worker's heartbeat now. */
  heartbeatNow(): Promise<void>;
  /** Forgets what is no longer needed (rate-limit windows that ended long ago), as the hourly pass does. */
  runHousekeepingNow(): Promise<void>;
  /** Recomputes the reputation and queue medians now, as the scheduled pass does. */
  runMediansNow(): Promise<void>;
  /** Re-evaluates every earned-trust standing now (as of the worker's clock), as the scheduled pass does. */
  runTrustNow(): Promise<{ evaluated: number; changed: number }>;
  /**
   * Lets the jobs whose scheduled sends are due by the worker's clock leave the outbox now (decision 0036): a job
   * parked for a slot wakes by itself on the database's clock; this is for a clock a test moved.
   */
  runScheduleNow(): Promise<number>;
  /** Sends the queue reminders that are due now (by the worker's clock), as the scheduled pass does. */
  runRemindersNow(): Promise<ReminderPass>;
  /** One email delivery pass now (a batch of each feed with waiting mails), as the scheduled one does. */
  runEmailDeliveryNow(): Promise<DeliveryPass>;
  /** One fediverse pass now (retired actors' Deletes queued, then the deliveries that are due), as the scheduled one does. */
  runFediverseDeliveryNow(): Promise<FediverseDeliveryPass>;
  stop(): Promise<void>;
}

export interface WorkerOptions extends RunnerDepsOptions {
  intake: Intake;
  /** The moderation log's self-check, when one is registered: its broken chain opens an alert. */
  logSelfCheck?: LogSelfCheck;
  /** What the heartbeat reports this process as (`all` or `worker`). */
  role?: string;
}

const INTAKE_QUEUE = "curate-intake";
const RECAP_QUEUE = "curate-recaps";
const ALERT_QUEUE = "curate-alerts";
const HOUSEKEEPING_QUEUE = "curate-housekeeping";
/** Every worker asks this often (and once at start); the queue keeps one pass per interval however many ask. */
const HOUSEKEEPING_SECONDS = 60 * 60;
const LOG_SIGN_QUEUE = "curate-log-signing";
const LOG_CHECK_QUEUE = "curate-log-check";
const MEDIANS_QUEUE = "curate-reputation-medians";
const REMINDERS_QUEUE = "curate-queue-reminders";
const BACKFILL_QUEUE = "curate-reputation-backfill";
const EMAIL_QUEUE = "curate-email-delivery";
const FEDIVERSE_QUEUE = "curate-fediverse-delivery";
/** Finished fediverse deliveries are kept this long (the settings page counts the failed ones). */
const FEDIVERSE_DELIVERIES_KEPT_MS = 7 * 24 * 60 * 60_000;
const TRUST_QUEUE = "curate-trust-standing";
/** How often a worker asks for the backfill while it is not done (a pass after it is done reads one row). */
const BACKFILL_INTERVAL_MS = 60_000;
/** How often a worker looks for scheduled sends that are due but whose jobs still sleep. */
const SCHEDULE_WAKE_MS = 60_000;
const MAX_TICK_POLL_SECONDS = 60;
/** Chunks of one backfill pass: about a million decisions, well within the queue's expiry. */
const BACKFILL_CHUNKS_PER_PASS = 200;

/**
 * The worker role: one pg-boss engine on the app's database runs the processing pipeline and the intake polls.
 * Every worker process asks for an intake pass each interval, but the queue keeps one per interval and runs one
 * at a time, so M workers poll X once, not M times.
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHost> {
  const { database, env, intake, logger } = options;
  const boss = createQueueClient(database, { monitorIntervalSeconds: env.WORKER_MONITOR_INTERVAL_SECONDS });
  boss.on("error", (error) => logger.warn({ err: error }, "queue error"));
  await boss.start();

  const engine = await startProcessingEngine(
    boss,
    database,
    runnerDeps(options),
    { concurrency: env.PROCESSING_CONCURRENCY, heartbeatSeconds: env.PROCESSING_HEARTBEAT_SECONDS },
    logger,
  );

  const bulkRuns = await startBulkRunEngine(
    boss,
    database,
    { heartbeatSeconds: env.PROCESSING_HEARTBEAT_SECONDS, chunkPauseMs: env.BULK_RUN_CHUNK_PAUSE_MS },
    logger,
  );

  const intakePass = () => runIntakeTick(database.db, intake, logger, env.INTAKE_INTERVAL_MS);

  const intakeTimer = await everyInterval(
    boss,
    INTAKE_QUEUE,
    env.INTAKE_INTERVAL_MS,
    logger,
    "intake pass",
    intakePass,
  );

  // Recaps: every worker asks for a look each RECAP_TICK_MS; the queue keeps one per interval, and the look
  // itself makes each scheduled run once however many workers look (decision 0013).
  const clock = options.clock ?? (() => new Date());
  // A parked job wakes by its `not_before`; this pass is the net under a re-plan that raced a job's own parking.
  const scheduleTimer = setInterval(() => {
    wakeDueSends(database.db, clock().getTime()).catch((error) =>
      logger.warn({ err: error }, "could not wake scheduled sends"),
    );
  }, SCHEDULE_WAKE_MS);
  scheduleTimer.unref();
  const recapPass = async () => {
    const created = await scheduleDueRecaps(database.db, clock(), logger);
    if (created) engine.relayNow();
    return created;
  };
  const recapTimer = await everyInterval(
    boss,
    RECAP_QUEUE,
    env.RECAP_TICK_MS,
    logger,
    "recap scheduling",
    recapPass,
  );

  // Alerts: like recaps, one check per interval over every worker (and the check itself takes a lock).
  const alertPass = () =>
    checkAlerts(
      {
        db: database.db,
        env,
        xBudget: createXBudget(database.db, { limit: env.X_API_CALLS_PER_HOUR, clock }),
        logSelfCheck: options.logSelfCheck,
        logger,
      },
      clock(),
    );
  const alertTimer = await everyInterval(
    boss,
    ALERT_QUEUE,
    env.ALERT_CHECK_INTERVAL_MS,
    logger,
    "alert check",
    alertPass,
  );

  const heartbeat = await startHeartbeat(
    database.db,
    {
      role: options.role ?? "worker",
      version: VERSION,
      concurrency: env.PROCESSING_CONCURRENCY,
      intervalSeconds: env.PROCESSING_HEARTBEAT_SECONDS,
      running: engine.running,
      clock,
    },
    logger,
  );

  const housekeepingPass = async () => {
    await pruneLimits(database.db);
    await pruneTokenUses(database.db);
  };
  const housekeepingTimer = await everyInterval(
    boss,
    HOUSEKEEPING_QUEUE,
    HOUSEKEEPING_SECONDS * 1000,
    logger,
    "housekeeping",
    housekeepingPass,
    { askNow: true },
  );

  // The moderation logs: heads signed every LOG_SIGN_INTERVAL_MS, every log recomputed every LOG_CHECK_INTERVAL_MS,
  // each once per interval across workers (a second signature of one head would be refused anyway).
  const signer = logSigner(env.LOG_SIGNING_SEED);
  const logTimers = [
    await everyInterval(boss, LOG_SIGN_QUEUE, env.LOG_SIGN_INTERVAL_MS, logger, "log signing", () =>
      signHeads(database.db, signer, logger),
    ),
    await everyInterval(boss, LOG_CHECK_QUEUE, env.LOG_CHECK_INTERVAL_MS, logger, "log self-check", () =>
      checkAllLogs(database.db, logger),
    ),
  ];

  // Reputation (decision 0030): older decisions classified by a resumable backfill; the medians recomputed on a
  // schedule; earned trust re-evaluated as its day windows move (decision 0033); queue reminders, each pass once per
  // interval across workers.
  let stopping = false;
  const reminderBot = env.TELEGRAM_INTAKE_BOT_TOKEN
    ? createTelegramBotApi({
        apiRoot: env.TELEGRAM_API_BASE_URL,
        token: env.TELEGRAM_INTAKE_BOT_TOKEN,
        logger,
        retries: 1,
      })
    : null;
  const mediansPass = () => refreshMedians(database.db, clock());
  const remindersPass = () =>
    sendQueueReminders(database.db, { env, telegram: reminderBot, logger }, clock());
  const trustPass = () => reevaluateStandings(database.db, clock());
  const reputationTimers = [
    await everyInterval(
      boss,
      BACKFILL_QUEUE,
      BACKFILL_INTERVAL_MS,
      logger,
      "reputation backfill",
      async () => {
        const progress = await backfillReputation(database.db, {
          maxChunks: BACKFILL_CHUNKS_PER_PASS,
          shouldContinue: () => !stopping,
        });
        if (progress.chunks > 0) logger.info(progress, "reputation backfill pass");
      },
      { askNow: true },
    ),
    await everyInterval(
      boss,
      MEDIANS_QUEUE,
      env.REPUTATION_REFRESH_INTERVAL_MS,
      logger,
      "median refresh",
      mediansPass,
      {
        askNow: true,
      },
    ),
    await everyInterval(
      boss,
      TRUST_QUEUE,
      env.TRUST_REEVALUATION_INTERVAL_MS,
      logger,
      "trust re-evaluation",
      async () => {
        const pass = await trustPass();
        if (pass.changed > 0) logger.info(pass, "trust re-evaluation pass");
      },
    ),
    await everyInterval(
      boss,
      REMINDERS_QUEUE,
      env.QUEUE_REMINDER_INTERVAL_MS,
      logger,
      "queue reminders",
      remindersPass,
    ),
  ];

  // Newsletters (decision 0034): one delivery pass at a time over every worker, so the relay's rate holds; a pass
  // opens a few pooled connections and closes them when done.
  const emailPass = async (): Promise<DeliveryPass> => {
    const mailer = createMailer(env.MAIL, env.EMAIL_FROM, { pooled: true });
    if (!mailer) return { sent: 0, failed: 0, suppressed: 0, deferred: 0 };
    try {
      return await deliverPending({ db: database.db, env, mailer, logger });
    } finally {
      mailer.close();
    }
  };
  const emailTimer =
    env.MAIL.kind === "off"
      ? null
      : await everyInterval(boss, EMAIL_QUEUE, env.EMAIL_TICK_MS, logger, "email delivery", async () => {
          const pass = await emailPass();
          if (pass.sent + pass.failed + pass.suppressed > 0) logger.info(pass, "email delivery pass");
        });

  // The fediverse (decision 0037): inbound activities the API verified and queued are handled here (Fedify's inbox
  // queue on pg-boss, retried with backoff); deleted feeds' actors tell their followers, then due deliveries are
  // signed and sent through the outbound guard, one pass at a time over every worker.
  const fediverse = createFediverse({
    db: database.db,
    env,
    logger,
    inbox: new PgBossMessageQueue(boss, FEDIVERSE_INBOX_QUEUE),
  });
  const inboxListening = new AbortController();
  // Without the fediverse no inbound activity is taken, so there is nothing to listen for.
  const inboxListened = env.FEDIVERSE.available
    ? fediverse.federation
        .startQueue(undefined, { signal: inboxListening.signal, queue: "inbox" })
        .catch((error) => logger.warn({ err: error }, "the fediverse inbox queue stopped"))
    : Promise.resolve();
  const fediversePass = async (): Promise<FediverseDeliveryPass> => {
    await sendActorDeletes(database.db, fediverse);
    const pass = await deliverDue({ db: database.db, env, logger, context: fediverse.context });
    await pruneDeliveries(database.db, new Date(Date.now() - FEDIVERSE_DELIVERIES_KEPT_MS));
    await sweepExpiredKv(database.db);
    return pass;
  };
  const fediverseTimer = env.FEDIVERSE.available
    ? await everyInterval(
        boss,
        FEDIVERSE_QUEUE,
        env.FEDIVERSE_TICK_MS,
        logger,
        "fediverse delivery",
        async () => {
          const pass = await fediversePass();
          if (pass.sent + pass.failed + pass.retrying > 0) logger.info(pass, "fediverse delivery pass");
        },
      )
    : null;

  return {
    boss,
    engine,
    bulkRuns,
    runEmailDeliveryNow: emailPass,
    runFediverseDeliveryNow: fediversePass,
    runMediansNow: mediansPass,
    runRemindersNow: remindersPass,
    runScheduleNow: () => wakeDueSends(database.db, clock().getTime()),
    runTrustNow: trustPass,
    runIntakeNow: intakePass,
    runRecapsNow: recapPass,
    runAlertsNow: alertPass,
    heartbeatNow: heartbeat.beat,
    runHousekeepingNow: housekeepingPass,
    async stop() {
      clearInterval(intakeTimer);
      clearInterval(scheduleTimer);
      clearInterval(recapTimer);
      clearInterval(alertTimer);
      clearInterval(housekeepingTimer);
      for (const logTimer of logTimers) clearInterval(logTimer);
      stopping = true;
      for (const reputationTimer of reputationTimers) clearInterval(reputationTimer);
      if (emailTimer) clearInterval(emailTimer);
      if (fediverseTimer) clearInterval(fediverseTimer);
      inboxListening.abort();
      await inboxListened;
      await heartbeat.stop();
      await bulkRuns.stop();
      await engine.stop();
      await boss.stop({ graceful: true, timeout: 15_000 });
    },
  };
}

/**
 * A singleton queue every worker asks to run `work` each `intervalMs`: the queue runs it once per interval. The
 * worker that asked first takes the job at once (it wakes its own poll), so the queue is polled only as a net for a
 * job whose asker stopped before taking it: once an interval, at most once a minute. An idle server otherwise
 * queried every such queue each second (a dozen of them: 40 % of its idle queries).
 */
async function everyInterval(
  boss: PgBoss,
  queue: string,
  intervalMs: number,
  logger: Logger,
  what: string,
  work: () => Promise<unknown>,
  options: { askNow?: boolean } = {},
) {
  const seconds = Math.max(1, Math.round(intervalMs / 1000));
  await boss.createQueue(queue, {
    policy: "singleton",
    retryLimit: 0,
    expireInSeconds: 15 * 60,
    deleteAfterSeconds: 60 * 60,
  } as Parameters<PgBoss["createQueue"]>[1]);
  const workerId = await boss.work(
    queue,
    { pollingIntervalSeconds: Math.min(seconds, MAX_TICK_POLL_SECONDS) },
    async () => {
      try {
        await work();
      } catch (error) {
        logger.warn({ err: error }, `${what} failed`);
      }
    },
  );
  const ask = async () => {
    try {
      // Null when another worker already asked for this interval: that one takes it.
      if (await boss.sendThrottled(queue, {}, null, seconds, "tick")) boss.notifyWorker(workerId);
    } catch (error) {
      logger.warn({ err: error }, `could not schedule the ${what}`);
    }
  };
  if (options.askNow) void ask();
  const timer = setInterval(ask, intervalMs);
  timer.unref();
  return timer;
}
