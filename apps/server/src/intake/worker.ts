import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { runFeedSources } from "./feed-sources.ts";
import type { Intake } from "./runtime.ts";

export interface IntakeWorker {
  stop(): Promise<void>;
}

/** Polls mentions and feed sources on a timer; a tick never overlaps the previous one. */
export function startIntakeWorker(
  db: Database,
  intake: Intake,
  logger: Logger,
  intervalMs: number,
): IntakeWorker {
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
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
