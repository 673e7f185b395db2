import type { Logger } from "pino";
import { XBudgetSpent } from "../clients/x-api.ts";
import type { Database } from "../db/index.ts";
import { mentionNetwork, pruneIntakeSources, recordSourcePoll } from "../operations/intake-sources.ts";
import { withRootSpan } from "../telemetry/tracing.ts";
import { reportXBudgetSpent, runFeedSources } from "./feed-sources.ts";
import type { Intake } from "./runtime.ts";
import { xBudgetWindow } from "./x-budget.ts";

/**
 * One intake tick: the bot's mentions on every network first (the X budget keeps their calls aside), then the due
 * searches of feeds' sources. The worker runs one tick per INTAKE_INTERVAL_MS over every worker.
 */
export async function runIntakeTick(db: Database, intake: Intake, logger: Logger, intervalMs = 60_000) {
  const now = intake.clock();
  for (const source of intake.mentionSources) {
    const network = mentionNetwork(source);
    // Each poll is the root of its own trace: the approvals it makes and the jobs they ask for continue it.
    await withRootSpan(
      intake.telemetry.tracer,
      "intake.poll",
      { "curate.intake.network": network },
      async () => {
        const poll = {
          sourceKey: source.key,
          network,
          at: now,
          nextPollAt: new Date(now.getTime() + intervalMs),
        };
        try {
          const run = await intake.runPass(source);
          if (!run.skipped) await recordSourcePoll(db, poll);
          if (run.read) logger.info({ source: source.key, ...run }, "mentions read");
        } catch (error) {
          if (error instanceof XBudgetSpent && intake.x) {
            await reportXBudgetSpent(intake.x.budget, logger, xBudgetWindow(now), { source: source.key });
          } else {
            intake.telemetry.metrics.observeIntakePoll(network, { postedAt: [], failed: true, at: now });
            await recordSourcePoll(db, { ...poll, error });
            logger.warn({ err: error, source: source.key }, "mention intake failed");
          }
        }
      },
    );
  }
  try {
    const { stored, sourceKeys } = await runFeedSources(db, intake, logger, now);
    await pruneIntakeSources(db, [...intake.mentionSources.map((source) => source.key), ...sourceKeys]);
    if (stored) {
      intake.notifyChanged();
      logger.info({ stored }, "feed sources stored posts");
    }
  } catch (error) {
    logger.warn({ err: error }, "feed sources failed");
  }
}
