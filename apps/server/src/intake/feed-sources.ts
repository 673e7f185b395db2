import { ALL_FEED_ID, type FeedConfig } from "@curate/core";
import { and, isNull, ne } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { feeds, sourceCursors } from "../db/schema.ts";
import { nextScheduledRun } from "../feeds/schedules.ts";
import { oldestFirst } from "../sources/types.ts";
import type { Intake } from "./runtime.ts";
import { ingestSourcePosts, saveCursor } from "./service.ts";

export const DEFAULT_SOURCE_INTERVAL_MS = 5 * 60 * 1000;

/** When a search last ran is when its cursor row was last written. */
async function lastRuns(db: Database): Promise<Map<string, { cursor: string | null; at: Date }>> {
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

export function searchKey(feedId: string, sourceIndex: number, searchIndex: number, searchId?: string) {
  return `feed:${feedId}:${sourceIndex}:${searchId ?? searchIndex}`;
}

/**
 * Runs every due search of every enabled, unquarantined feed's sources through this deployment's adapters, storing what
 * they find as pending submissions of that feed; each search keeps its own cursor.
 */
export async function runFeedSources(
  db: Database,
  intake: Pick<Intake, "searchSourceFor">,
  logger: Logger,
  now = new Date(),
) {
  const runs = await lastRuns(db);
  const rows = await db
    .select({ id: feeds.id, config: feeds.config })
    .from(feeds)
    // A quarantined config (feeds/quarantine.ts) is not run until its owners save it without raw credentials.
    .where(and(ne(feeds.id, ALL_FEED_ID), isNull(feeds.secretFindings)));
  let stored = 0;
  for (const feed of rows) {
    const config = feed.config as FeedConfig;
    if (config.enabled === false || config.ingestion?.enabled === false) continue;
    for (const [sourceIndex, source] of (config.sources ?? []).entries()) {
      const adapter = intake.searchSourceFor(source.plugin);
      if (!adapter) continue;
      for (const [searchIndex, search] of (source.search ?? []).entries()) {
        const key = searchKey(feed.id, sourceIndex, searchIndex, search.searchId);
        const last = runs.get(key);
        if (!isDue(config, last?.at, now, logger)) continue;
        try {
          const result = await adapter.search(search, last?.cursor ?? null);
          stored += await ingestSourcePosts(db, oldestFirst(result.posts), {
            sourceId: key,
            feedId: feed.id,
          });
          await saveCursor(db, key, result.cursor ?? last?.cursor ?? "");
        } catch (error) {
          logger.warn({ err: error, feed: feed.id, search: key }, "feed source failed");
        }
      }
    }
  }
  return { stored };
}
