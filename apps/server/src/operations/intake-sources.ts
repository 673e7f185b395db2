import { builtinPluginName } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import type { MentionSource } from "../sources/types.ts";

/** The network a mention source reads (`test` for a development server's test posts). */
export function mentionNetwork(source: Pick<MentionSource, "key" | "platform">): string {
  return source.key.startsWith("test:") ? "test" : source.platform;
}

const SEARCH_NETWORKS: Record<string, string> = {
  "x-source": "twitter",
  "bluesky-source": "bluesky",
  "mastodon-source": "mastodon",
  "rss-source": "rss",
  "test-source": "test",
};

/** The network a feed source's plugin reads, or `other` for one this server does not know. */
export function searchNetwork(plugin: string): string {
  return SEARCH_NETWORKS[builtinPluginName(plugin) ?? ""] ?? "other";
}

export interface SourcePoll {
  sourceKey: string;
  network: string;
  feedId?: string | null;
  at: Date;
  /** When the source is due again. */
  nextPollAt: Date;
  /** What failed, when the poll did. */
  error?: unknown;
}

/**
 * Records one poll of an intake source for the Operations page and the silent-source alert. Never throws: what
 * intake read matters more than its bookkeeping.
 */
export async function recordSourcePoll(db: Database, poll: SourcePoll): Promise<void> {
  const failed = poll.error !== undefined;
  const at = poll.at.toISOString();
  const message = failed
    ? (poll.error instanceof Error ? poll.error.message : String(poll.error)).slice(0, 500)
    : null;
  await db
    .execute(
      sql`insert into intake_sources as s (source_key, network, feed_id, last_poll_at, last_success_at, next_poll_at,
          last_error, last_error_at, created_at)
        values (${poll.sourceKey}, ${poll.network}, ${poll.feedId ?? null}, ${at}, ${failed ? null : at},
          ${poll.nextPollAt.toISOString()}, ${message}, ${failed ? at : null}, ${at})
        on conflict (source_key) do update set network = excluded.network, last_poll_at = excluded.last_poll_at,
          next_poll_at = excluded.next_poll_at,
          last_success_at = coalesce(excluded.last_success_at, s.last_success_at),
          last_error = case when excluded.last_error_at is null then s.last_error else excluded.last_error end,
          last_error_at = coalesce(excluded.last_error_at, s.last_error_at)`,
    )
    .catch(() => {});
}

/** Forgets sources no longer configured (a feed's search removed, a bot's token unset), so none stays "silent". */
export async function pruneIntakeSources(db: Database, configured: readonly string[]): Promise<void> {
  await db
    .execute(
      sql`delete from intake_sources where not (source_key = any(${sql`array[${sql.join(
        configured.map((key) => sql`${key}`),
        sql`, `,
      )}]::text[]`}))`,
    )
    .catch(() => {});
}
