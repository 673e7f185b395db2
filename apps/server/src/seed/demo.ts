import { ALL_FEED_ID } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import {
  activities,
  feeds,
  moderationHistory,
  processingJobs,
  submissionFeeds,
  submissions,
  uploads,
  users,
} from "../db/schema.ts";
import { storeSvg } from "./images.ts";
import { buildDemoPlan } from "./plan.ts";

export interface SeedSummary {
  feeds: number;
  submissions: number;
  curators: number;
}

export interface SeedOptions {
  /** Folder served at /uploads/ where generated feed images are written. */
  uploadsDir: string;
  /** Absolute base URL of this deployment, for image URLs. */
  publicUrl: string;
  /** Reference time the demo's relative dates hang from; defaults to the current time. */
  now?: Date;
  /** The bot handle named in the feeds' mention searches. */
  botHandle?: string;
}

/** Keeps each multi-row insert well under the driver's bind-parameter limit. */
const CHUNK = 500;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/**
 * Fills an empty database with a believable community: a dozen feeds with generated artwork, ~300
 * submissions across them in every status, their moderation trail, activities and curator stats, and a
 * processing request for every approval, which the worker runs on first start (publishing the feeds' RSS).
 * Submissions go in as pending and the links after them, so the triggers derive overall status and counters.
 */
export async function seedDemoData(db: Database, options: SeedOptions): Promise<SeedSummary> {
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  const plan = buildDemoPlan({
    now: options.now ?? new Date(),
    publicUrl,
    botHandle: options.botHandle ?? "curatedotfun",
  });

  const stored = new Map(plan.images.map((image) => [image.feedId, storeSvg(options.uploadsDir, image.svg)]));
  const imageUrl = (feedId: string) => {
    const file = stored.get(feedId);
    return file ? `/uploads/${file.fileName}` : null;
  };
  const feedRows = plan.feeds.map((feed) => {
    const image = imageUrl(feed.id);
    return { ...feed, image, config: image ? { ...feed.config, image } : feed.config };
  });
  const uploadRows = [...stored.entries()].map(([feedId, file]) => ({
    hash: file.hash,
    mimeType: "image/svg+xml",
    size: file.size,
    extension: "svg",
    createdBy: plan.feeds.find((f) => f.id === feedId)?.createdBy ?? null,
    createdAt: plan.feeds.find((f) => f.id === feedId)?.createdAt,
  }));

  await db.transaction(async (tx) => {
    await tx.insert(users).values(plan.users).onConflictDoNothing();
    await tx.insert(uploads).values(uploadRows).onConflictDoNothing();
    await tx.insert(feeds).values(feedRows);
    await insertChunked(plan.submissions, (chunk) => tx.insert(submissions).values(chunk));
    await insertChunked(plan.links, (chunk) => tx.insert(submissionFeeds).values(chunk));
    // The status trigger stamps updated_at with the seeding time; restore each post's own last change.
    const stamps = plan.submissions.map((row) => ({
      id: row.tweetId,
      at: (row.updatedAt as Date).toISOString(),
    }));
    await tx.execute(sql`update submissions s set updated_at = v.at
      from jsonb_to_recordset(${JSON.stringify(stamps)}::jsonb) as v(id text, at timestamptz)
      where s.tweet_id = v.id`);
    await insertChunked(plan.moderation, (chunk) => tx.insert(moderationHistory).values(chunk));
    await insertChunked(plan.activities, (chunk) => tx.insert(activities).values(chunk));
    await insertChunked(plan.jobs, (chunk) => tx.insert(processingJobs).values(chunk));
  });

  return {
    feeds: plan.feeds.filter((f) => f.id !== ALL_FEED_ID).length,
    submissions: plan.submissions.length,
    curators: plan.curators,
  };
}
