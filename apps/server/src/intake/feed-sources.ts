import { ALL_FEED_ID, builtinPluginName, type FeedConfig } from "@curate/core";
import { and, isNull, ne } from "drizzle-orm";
import type { Logger } from "pino";
import { XBudgetSpent } from "../clients/x-api.ts";
import type { Database } from "../db/index.ts";
import { feeds, sourceCursors } from "../db/schema.ts";
import { nextScheduledRun } from "../feeds/schedules.ts";
import { recordSourcePoll, searchNetwork } from "../operations/intake-sources.ts";
import { oldestFirst, type SearchSource, type SearchSpec } from "../sources/types.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { Intake, XIntake } from "./runtime.ts";
import { ingestSourcePosts, saveCursor } from "./service.ts";
import {
  type AccountDemand,
  allocateXSearches,
  type BudgetWindow,
  botReserve,
  type FeedDemand,
  ticksLeftInWindow,
  xBudgetWindow,
} from "./x-budget.ts";
import { saveXSearchWaits, waitingXAcknowledgements, type XBudget } from "./x-budget-store.ts";

export const DEFAULT_SOURCE_INTERVAL_MS = 5 * 60 * 1000;

type LastRun = { cursor: string | null; at: Date };

/** When a search last ran is when its cursor row was last written. */
async function lastRuns(db: Database): Promise<Map<string, LastRun>> {
  const rows = await db.select().from(sourceCursors);
  return new Map(rows.map((r) => [r.sourceKey, { cursor: r.cursor, at: r.updatedAt }]));
}

/**
 * Due by the feed's cron `ingestion.schedule` when it has one, else by its polling interval. Saving refuses an
 * unreadable schedule; one stored before that rule is reported and the interval used meanwhile.
 */
export function isDue(config: FeedConfig, lastRun: Date | undefined, now: Date, logger?: Logger): boolean {
  if (!lastRun) return true;
  const schedule = config.ingestion?.schedule;
  if (schedule) {
    try {
      return nextScheduledRun(schedule, lastRun) <= now;
    } catch (error) {
      logger?.warn(
        { feed: config.id, schedule, err: error },
        "unreadable ingestion schedule; using the interval",
      );
    }
  }
  return lastRun.getTime() + (config.pollingIntervalMs ?? DEFAULT_SOURCE_INTERVAL_MS) <= now.getTime();
}

/** When a search that ran at `at` is due again: its cron schedule's next run, or the interval after. */
export function nextDueAt(config: FeedConfig, at: Date): Date {
  const schedule = config.ingestion?.schedule;
  if (schedule) {
    try {
      return nextScheduledRun(schedule, at);
    } catch {
      // An unreadable schedule runs on the interval (isDue says so in the log).
    }
  }
  return new Date(at.getTime() + (config.pollingIntervalMs ?? DEFAULT_SOURCE_INTERVAL_MS));
}

export function searchKey(feedId: string, sourceIndex: number, searchIndex: number, searchId?: string) {
  return `feed:${feedId}:${sourceIndex}:${searchId ?? searchIndex}`;
}

/** A due X search: paid for from the operator's X budget, shared by the account that created its feed. */
type DueX = {
  feedId: string;
  account: string;
  key: string;
  search: SearchSpec;
  last?: LastRun;
  network: string;
  nextPollAt: Date;
  metrics?: Metrics;
};

/** Where a search is recorded for operations (its network, when it is due again) and counted (the intake's metrics). */
type SearchPoll = { network: string; nextPollAt: Date; at: Date; metrics?: Metrics };

/**
 * One search: what it found stored as the feed's pending submissions, then its cursor moved past them. Its poll is
 * recorded for operations; a search the X budget turned away is not a failure of the source.
 */
async function runSearch(
  db: Database,
  adapter: SearchSource,
  feedId: string,
  key: string,
  search: SearchSpec,
  last: LastRun | undefined,
  poll: SearchPoll,
): Promise<number> {
  const recorded = {
    sourceKey: key,
    network: poll.network,
    feedId,
    at: poll.at,
    nextPollAt: poll.nextPollAt,
  };
  try {
    const result = await adapter.search(search, last?.cursor ?? null);
    poll.metrics?.observeIntakePoll(poll.network, {
      postedAt: result.posts.map((post) => post.createdAt),
      failed: false,
      at: poll.at,
    });
    const stored = await ingestSourcePosts(db, oldestFirst(result.posts), { sourceId: key, feedId });
    await saveCursor(db, key, result.cursor ?? last?.cursor ?? "");
    await recordSourcePoll(db, recorded);
    return stored;
  } catch (error) {
    if (!(error instanceof XBudgetSpent)) {
      poll.metrics?.observeIntakePoll(poll.network, { postedAt: [], failed: true, at: poll.at });
      await recordSourcePoll(db, { ...recorded, error });
    }
    throw error;
  }
}

/**
 * Runs every due search of every enabled, unquarantined feed's sources through this deployment's adapters,
 * storing what they find as pending submissions of that feed; each search keeps its own cursor. X searches run
 * within the operator's X budget (`runXSearches`); what it cannot pay for this tick waits, its cursor untouched.
 */
export async function runFeedSources(
  db: Database,
  intake: Pick<Intake, "searchSourceFor"> & Partial<Pick<Intake, "x" | "telemetry">>,
  logger: Logger,
  now = new Date(),
) {
  const runs = await lastRuns(db);
  const rows = await db
    .select({ id: feeds.id, config: feeds.config, createdBy: feeds.createdBy })
    .from(feeds)
    // A quarantined config (feeds/quarantine.ts) is not run until its owners save it without raw credentials.
    .where(and(ne(feeds.id, ALL_FEED_ID), isNull(feeds.secretFindings)));
  const dueX: DueX[] = [];
  /** When each feed's and each account's X searches last ran, due or not: where the rotation picks up. */
  const servedX = new Map<string, number>();
  const noteServed = (name: string, at: Date | undefined) => {
    if (at && at.getTime() > (servedX.get(name) ?? Number.NEGATIVE_INFINITY)) servedX.set(name, at.getTime());
  };
  let stored = 0;
  const sourceKeys: string[] = [];
  for (const feed of rows) {
    const config = feed.config as FeedConfig;
    if (config.enabled === false || config.ingestion?.enabled === false) continue;
    for (const [sourceIndex, source] of (config.sources ?? []).entries()) {
      const budgeted = Boolean(intake.x) && builtinPluginName(source.plugin) === "x-source";
      const adapter = budgeted ? null : intake.searchSourceFor(source.plugin);
      if (!budgeted && !adapter) continue;
      for (const [searchIndex, search] of (source.search ?? []).entries()) {
        const key = searchKey(feed.id, sourceIndex, searchIndex, search.searchId);
        sourceKeys.push(key);
        const last = runs.get(key);
        const poll = {
          network: searchNetwork(source.plugin),
          nextPollAt: nextDueAt(config, now),
          at: now,
          metrics: intake.telemetry?.metrics,
        };
        // A feed nobody created (seeded, imported) is an account of its own.
        const account = feed.createdBy?.toLowerCase() ?? `feed:${feed.id}`;
        if (!adapter) {
          noteServed(`feed:${feed.id}`, last?.at);
          noteServed(`account:${account}`, last?.at);
        }
        if (!isDue(config, last?.at, now, logger)) continue;
        if (!adapter) {
          dueX.push({ feedId: feed.id, account, key, search, last, ...poll });
          continue;
        }
        try {
          stored += await runSearch(db, adapter, feed.id, key, search, last, poll);
        } catch (error) {
          logger.warn({ err: error, feed: feed.id, search: key }, "feed source failed");
        }
      }
    }
  }
  if (intake.x) stored += await runXSearches(db, intake.x, demandOf(dueX, servedX), logger, now);
  else if (intake.x === null) await saveXSearchWaits(db, [], now);
  return { stored, sourceKeys };
}

/**
 * The due X searches this tick can pay for: the window's remaining calls less the bot's reserve, spread over the
 * ticks left and shared round-robin by account and feed (`allocateXSearches`). The rest wait with their cursors
 * as they are, so nothing they would find is skipped; the feeds they belong to are marked as waiting, and a window
 * whose part for searches is gone is logged once over every worker.
 */
async function runXSearches(
  db: Database,
  x: XIntake,
  demand: { due: ReadonlyMap<string, DueX>; pending: AccountDemand[] },
  logger: Logger,
  now: Date,
) {
  const window = xBudgetWindow(now);
  const ticksLeft = ticksLeftInWindow(now, window, x.tickMs);
  const [spent, acknowledgements] = await Promise.all([
    x.budget.spent(window),
    x.acknowledges ? waitingXAcknowledgements(db) : Promise.resolve(0),
  ]);
  const reserved = botReserve({
    ticksAfterThis: ticksLeft - 1,
    mentionSources: x.mentionSources,
    waitingAcknowledgements: acknowledgements,
  });
  const byKey = demand.due;
  const plan = allocateXSearches({
    remaining: x.budget.limit - spent,
    reserved,
    ticksLeft,
    pending: demand.pending,
  });

  const source = x.searchWithin(x.budget.limit - reserved);
  const postponed = [...plan.postponed];
  let budgetRanOut = plan.windowSpent;
  let stored = 0;
  for (const [index, key] of plan.run.entries()) {
    const search = byKey.get(key) as DueX;
    try {
      stored += await runSearch(db, source, search.feedId, key, search.search, search.last, {
        network: search.network,
        nextPollAt: search.nextPollAt,
        at: now,
        metrics: search.metrics,
      });
    } catch (error) {
      if (error instanceof XBudgetSpent) {
        // Further pages of searches, or other workers' calls (mentions, replies), took the searches' part: this
        // search and the rest of the tick's wait, their cursors as they were.
        postponed.push(...plan.run.slice(index));
        budgetRanOut = true;
        break;
      }
      logger.warn({ err: error, feed: search.feedId, search: key }, "feed source failed");
    }
  }

  const waiting = new Map<string, number>();
  for (const key of postponed) {
    const feedId = (byKey.get(key) as DueX).feedId;
    waiting.set(feedId, (waiting.get(feedId) ?? 0) + 1);
  }
  const until = budgetRanOut
    ? window.end
    : new Date(Math.min(now.getTime() + x.tickMs, window.end.getTime()));
  await saveXSearchWaits(
    db,
    [...waiting].map(([feedId, searches]) => ({ feedId, searches, until })),
    now,
  );
  if (postponed.length) {
    logger.debug(
      { ran: plan.run.length, waiting: postponed.length, reserved },
      "X searches wait for the budget",
    );
  }
  if (budgetRanOut && postponed.length) {
    await reportXBudgetSpent(x.budget, logger, window, {
      waitingSearches: postponed.length,
      feeds: waiting.size,
    });
  }
  return stored;
}

/** The due X searches by account and feed, with when each feed and account was last served. */
function demandOf(due: readonly DueX[], served: ReadonlyMap<string, number>) {
  const accounts = new Map<string, Map<string, FeedDemand>>();
  for (const search of due) {
    const feeds = accounts.get(search.account) ?? new Map<string, FeedDemand>();
    accounts.set(search.account, feeds);
    const feed = feeds.get(search.feedId) ?? {
      feedId: search.feedId,
      lastServedAt: served.get(`feed:${search.feedId}`) ?? null,
      searches: [],
    };
    feeds.set(search.feedId, feed);
    feed.searches.push({ key: search.key, lastRunAt: search.last?.at.getTime() ?? null });
  }
  const pending: AccountDemand[] = [...accounts].map(([account, feeds]) => ({
    account,
    lastServedAt: served.get(`account:${account}`) ?? null,
    feeds: [...feeds.values()],
  }));
  return { due: new Map(due.map((search) => [search.key, search])), pending };
}

/** One line per window over every worker, however many calls and searches the spent budget turns away. */
export async function reportXBudgetSpent(
  budget: XBudget,
  logger: Logger,
  window: BudgetWindow,
  details: Record<string, unknown> = {},
) {
  if (!(await budget.firstToReportSpent(window))) return;
  logger.warn(
    { limit: budget.limit, resumesAt: window.end.toISOString(), ...details },
    "X API budget for this hour is spent; X intake waits for the next hour",
  );
}
