import {
  type ConfigVersionKind,
  channelsChanged,
  diffConfigs,
  type FeedConfig,
  type FeedVersion,
  type FeedVersionDetail,
  type Paged,
} from "@curate/core";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { feedConfigVersions, type feeds } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed } from "./permissions.ts";

type VersionRow = typeof feedConfigVersions.$inferSelect;
type FeedRow = typeof feeds.$inferSelect;

/** How a save came about: an edit, or a restore of an earlier version. */
export interface SaveProvenance {
  kind: Extract<ConfigVersionKind, "saved" | "restored">;
  restoredFrom?: number;
}

function toVersion(row: VersionRow): FeedVersion {
  return {
    feedId: row.feedId,
    version: row.version,
    kind: row.kind,
    restoredFrom: row.restoredFrom,
    savedBy: row.savedBy,
    savedAt: row.savedAt.toISOString(),
    channelsChanged: row.channelsChanged,
    changes: row.changes as FeedVersion["changes"],
    changeCount: row.changeCount,
  };
}

/** A new feed's first version, in the creating transaction. */
export async function recordCreation(tx: Database, feed: FeedRow, savedBy: string) {
  await tx.insert(feedConfigVersions).values({
    feedId: feed.id,
    version: 1,
    config: feed.config,
    kind: "created",
    savedBy,
    savedAt: feed.updatedAt,
  });
}

/**
 * Records a save in the saving transaction (after the feed's row was updated, so concurrent saves of one feed are
 * already in line): the next version, with its diff against the config it replaced. A feed written before it had a
 * history (demo data, an import) gets its previous config recorded as version 1 first.
 */
export async function recordSave(
  tx: Database,
  previous: FeedRow,
  saved: FeedRow,
  savedBy: string,
  provenance: SaveProvenance,
) {
  const [latest] = await tx
    .select({ version: feedConfigVersions.version })
    .from(feedConfigVersions)
    .where(eq(feedConfigVersions.feedId, saved.id))
    .orderBy(desc(feedConfigVersions.version))
    .limit(1);
  let version = latest?.version ?? 0;
  if (!latest) {
    version = 1;
    await tx.insert(feedConfigVersions).values({
      feedId: saved.id,
      version,
      config: previous.config,
      kind: "created",
      savedBy: previous.createdBy,
      savedAt: previous.updatedAt,
    });
  }
  const diff = diffConfigs(previous.config, saved.config);
  await tx.insert(feedConfigVersions).values({
    feedId: saved.id,
    version: version + 1,
    config: saved.config,
    kind: provenance.kind,
    restoredFrom: provenance.restoredFrom ?? null,
    savedBy,
    channelsChanged: channelsChanged(previous.config, saved.config),
    changes: diff.changes,
    changeCount: diff.count,
    savedAt: sql`now()`,
  });
}

/** A feed's versions, newest first; for whoever may edit it. */
export async function listFeedVersions(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  feedId: string,
  { page, limit }: { page: number; limit: number },
): Promise<Paged<FeedVersion>> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const rows = await db
    .select()
    .from(feedConfigVersions)
    .where(eq(feedConfigVersions.feedId, id))
    .orderBy(desc(feedConfigVersions.version))
    .limit(limit + 1)
    .offset(page * limit);
  const [{ total }] = await db
    .select({ total: count() })
    .from(feedConfigVersions)
    .where(eq(feedConfigVersions.feedId, id));
  return {
    items: rows.slice(0, limit).map(toVersion),
    pagination: { page, limit, hasNextPage: rows.length > limit, totalCount: total },
  };
}

/** One version with its config; for whoever may edit the feed. */
export async function getFeedVersion(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  feedId: string,
  version: number,
): Promise<FeedVersionDetail> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const [row] = await db
    .select()
    .from(feedConfigVersions)
    .where(and(eq(feedConfigVersions.feedId, id), eq(feedConfigVersions.version, version)));
  if (!row) throw AppError.notFound(`Feed "${id}" has no version ${version}.`);
  return { ...toVersion(row), config: row.config };
}

/** The config a version saved, to be saved again (the restore goes through the same checks as any save). */
export async function versionConfig(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  feedId: string,
  version: number,
): Promise<FeedConfig> {
  const detail = await getFeedVersion(db, env, user, feedId, version);
  return detail.config as FeedConfig;
}
