import { normaliseFeedId, type Paged, type Publication } from "@curate/core";
import { eq } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { processingJobs, submissionFeeds, submissions } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { jobPublicationPage, submissionPublicationPage } from "./ledger.ts";

type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">;
interface PageQuery {
  page: number;
  limit: number;
}

/**
 * Where a submission went: its ledger entries in one feed (`feedId`, which the reader must moderate: 403
 * otherwise), or in every feed of the submission the reader moderates (403 when it moderates none of them). Ledger entries are
 * for moderators only; signed out is a 401.
 */
export async function listSubmissionPublications(
  db: Database,
  env: Env,
  user: User | null,
  submissionId: string,
  query: PageQuery & { feedId?: string },
): Promise<Paged<Publication>> {
  if (!user) throw AppError.unauthenticated();
  const [submission] = await db
    .select({ id: submissions.tweetId })
    .from(submissions)
    .where(eq(submissions.tweetId, submissionId));
  if (!submission) throw AppError.notFound(`Submission "${submissionId}" not found.`);
  let feedIds: string[];
  if (query.feedId) {
    const feedId = normaliseFeedId(query.feedId);
    const right = await moderationRight(db, env, feedId, user);
    if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
    if (!right.canModerate) {
      throw AppError.forbidden(`You need to be a moderator of "${feedId}" to see where its posts went.`);
    }
    feedIds = [feedId];
  } else {
    const links = await db
      .select({ feedId: submissionFeeds.feedId })
      .from(submissionFeeds)
      .where(eq(submissionFeeds.submissionId, submissionId))
      .limit(100);
    const rights = await Promise.all(
      links.map(async (link) => ({
        feedId: link.feedId,
        right: await moderationRight(db, env, link.feedId, user),
      })),
    );
    feedIds = rights.filter((entry) => entry.right?.canModerate).map((entry) => entry.feedId);
    // An empty list would read as "published nowhere", which is not what a non-moderator may learn.
    if (links.length > 0 && feedIds.length === 0) {
      throw AppError.forbidden("Only moderators of this post's feeds can see where it was published.");
    }
  }
  return submissionPublicationPage(db, submissionId, feedIds, query);
}

/** What a job published, or what a retraction job took back (moderators of the job's feed). */
export async function listJobPublications(
  db: Database,
  env: Env,
  user: User | null,
  jobId: string,
  query: PageQuery,
): Promise<Paged<Publication>> {
  if (!user) throw AppError.unauthenticated();
  const [job] = await db
    .select({ feedId: processingJobs.feedId })
    .from(processingJobs)
    .where(eq(processingJobs.id, jobId));
  if (!job) throw AppError.notFound(`Processing job "${jobId}" not found.`);
  const right = await moderationRight(db, env, job.feedId, user);
  if (!right) throw AppError.notFound(`Feed "${job.feedId}" not found.`);
  if (!right.canModerate) {
    throw AppError.forbidden("You need to be a moderator of this feed to view or change its processing.");
  }
  return jobPublicationPage(db, jobId, query);
}
