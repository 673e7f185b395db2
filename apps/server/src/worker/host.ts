import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { runFeedSources } from "../intake/feed-sources.ts";
import type { Intake } from "../intake/runtime.ts";

export interface WorkerHost {
  stop(): Promise<void>;
}

export interface WorkerOptions {
  db: Database;
  intake: Intake;
  logger: Logger;
  intakeIntervalMs: number;
}

/**
 * The worker role: polls the bot's mentions and every feed's sources on a timer. A tick never overlaps the
 * previous one, and stop() waits for the tick under way.
 */
export function startWorker({ db, intake, logger, intakeIntervalMs }: WorkerOptions): WorkerHost {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (const source of intake.mentionSources) {
      try {
        const run = await intake.runPass(source);
        if (run.read) logger.info({ source: source.key, ...run }, "mentions read");
      } catch (error) {
        logger.warn({ err: error, source: source.key }, "mention intake failed");
      }
    }
    try {
      const { stored } = await runFeedSources(db, intake, logger);
      if (stored) {
        intake.notifyChanged();
        logger.info({ stored }, "feed sources stored posts");
      }
    } catch (error) {
      logger.warn({ err: error }, "feed sources failed");
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    current = current.then(tick);
  }, intakeIntervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
