import type { Paged, Publication, PublicationStatus } from "@curate/core";
import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { publications } from "../db/schema.ts";

type PublicationRow = typeof publications.$inferSelect;

/** What a distribution step that sent something hands the ledger. */
export interface SentPublication {
  job: { id: string; submissionId: string | null; feedId: string };
  step: {
    id: string;
    branch: number | null;
    branchKey: string | null;
    pluginName: string;
    stepName: string | null;
    config: unknown;
  };
  /** The send's receipt (the step's output). */
  receipt: unknown;
  /** The live entry the send edited in place (a re-run), rather than a new publication. */
  edited?: { publicationId?: string };
}

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value).slice(0, 2000) : null;

/**
 * Records a send in the ledger, in the caller's transaction (the one that marks the step done). A receipt without a
 * reference (a plugin that says nothing of where it went) is recorded under the plugin's name. A step succeeds
 * once, so a second record of the same step adds nothing.
 */
export async function recordPublication(tx: Database, sent: SentPublication): Promise<void> {
  const receipt = (sent.receipt ?? {}) as { reference?: { kind?: unknown; id?: unknown; url?: unknown } };
  const reference = receipt.reference && typeof receipt.reference === "object" ? receipt.reference : {};
  const referenceKind = text(reference.kind) ?? sent.step.pluginName;
  const referenceId = text(reference.id);
  const values = {
    jobId: sent.job.id,
    stepId: sent.step.id,
    branch: sent.step.branch ?? 0,
    branchKey: sent.step.branchKey ?? sent.step.pluginName,
    pluginName: sent.step.pluginName,
    stepName: sent.step.stepName,
    config: sent.step.config ?? null,
    referenceKind,
    referenceId,
    referenceUrl: text(reference.url),
    receipt: sent.receipt ?? null,
  };
  // A re-run that edited the live publication in place (the same message, page, row, item or delivery) is still
  // that one publication: its entry moves to the new job, keeping its id and when it first went out, so the
  // ledger holds one live entry per branch and a retraction removes it once.
  if (sent.edited?.publicationId) {
    const moved = await tx
      .update(publications)
      .set(values)
      .where(and(eq(publications.id, sent.edited.publicationId), eq(publications.status, "published")))
      .returning({ id: publications.id });
    if (moved.length > 0) return;
  }
  let publishedAt: Date | undefined;
  if (sent.edited && referenceId && sent.job.submissionId) {
    const earlier = await tx
      .delete(publications)
      .where(
        and(
          eq(publications.feedId, sent.job.feedId),
          eq(publications.submissionId, sent.job.submissionId),
          eq(publications.referenceKind, referenceKind),
          eq(publications.referenceId, referenceId),
          eq(publications.status, "published"),
        ),
      )
      .returning({ publishedAt: publications.publishedAt });
    publishedAt = earlier.map((row) => row.publishedAt).sort((a, b) => a.getTime() - b.getTime())[0];
  }
  await tx
    .insert(publications)
    .values({
      id: sent.step.id,
      submissionId: sent.job.submissionId,
      feedId: sent.job.feedId,
      ...values,
      ...(publishedAt ? { publishedAt } : {}),
    })
    .onConflictDoNothing({ target: publications.stepId });
}

/**
 * The publication live now on one branch of a submission in a feed: the newest entry still published under the
 * branch's key (older copies beside it are duplicates, or the first post after a "publish again").
 */
export async function liveEntryOf(db: Database, submissionId: string, feedId: string, branchKey: string) {
  const [row] = await db
    .select()
    .from(publications)
    .where(
      and(
        eq(publications.submissionId, submissionId),
        eq(publications.feedId, feedId),
        eq(publications.branchKey, branchKey),
        eq(publications.status, "published"),
      ),
    )
    .orderBy(desc(publications.publishedAt), desc(publications.id))
    .limit(1);
  return row ?? null;
}

export function toPublication(row: PublicationRow, supersededBy: string | null = null): Publication {
  return {
    id: row.id,
    submissionId: row.submissionId,
    feedId: row.feedId,
    pluginName: row.pluginName,
    branch: row.branch,
    branchKey: row.branchKey,
    supersededBy,
    channel: row.stepName,
    reference: { kind: row.referenceKind, id: row.referenceId, url: row.referenceUrl },
    status: row.status,
    jobId: row.jobId,
    stepId: row.stepId,
    publishedAt: row.publishedAt.toISOString(),
    retractedAt: row.retractedAt ? row.retractedAt.toISOString() : null,
    retractionJobId: row.retractionJobId,
    retractionNote: row.retractionNote,
  };
}

/** What a retraction step did to one entry. */
export async function markPublication(
  tx: Database,
  id: string,
  change: { status: PublicationStatus; retractionJobId: string; note: string | null },
) {
  await tx
    .update(publications)
    .set({
      status: change.status,
      retractionJobId: change.retractionJobId,
      retractionNote: change.note,
      ...(change.status === "retracted" ? { retractedAt: sql`now()` } : {}),
    })
    .where(eq(publications.id, id));
}

/** Entries still out there for a submission in a feed: what a retraction removes. */
export function livePublications(db: Database, submissionId: string, feedId: string) {
  return db
    .select()
    .from(publications)
    .where(
      and(
        eq(publications.submissionId, submissionId),
        eq(publications.feedId, feedId),
        eq(publications.status, "published"),
      ),
    )
    .orderBy(publications.publishedAt, publications.id);
}

export function publicationsByIds(db: Database, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as PublicationRow[]);
  return db.select().from(publications).where(inArray(publications.id, ids));
}

/** A page of ledger entries, newest first. */
async function pageOf(
  db: Database,
  where: SQL | undefined,
  page: number,
  limit: number,
): Promise<Paged<Publication>> {
  const rows = await db
    .select()
    .from(publications)
    .where(where)
    .orderBy(desc(publications.publishedAt), desc(publications.id))
    .limit(limit + 1)
    .offset(page * limit);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(publications).where(where);
  const hasNextPage = rows.length > limit;
  const items = rows.slice(0, limit);
  const live = await liveEntriesBeside(db, items);
  return {
    items: items.map((row) => {
      const newest = live.get(liveKey(row));
      return toPublication(row, row.status === "published" && newest && newest !== row.id ? newest : null);
    }),
    pagination: { page, limit, hasNextPage, totalCount: Number(total) },
  };
}

const liveKey = (row: Pick<PublicationRow, "submissionId" | "feedId" | "branchKey">) =>
  `${row.submissionId}\u0000${row.feedId}\u0000${row.branchKey}`;

/** The live (newest published) entry's id of each branch the page's published entries belong to. */
async function liveEntriesBeside(db: Database, rows: PublicationRow[]): Promise<Map<string, string>> {
  const published = rows.filter((row) => row.status === "published" && row.submissionId);
  if (published.length === 0) return new Map();
  const branches = [...new Map(published.map((row) => [liveKey(row), row])).values()];
  const newest = await db
    .selectDistinctOn([publications.submissionId, publications.feedId, publications.branchKey], {
      id: publications.id,
      submissionId: publications.submissionId,
      feedId: publications.feedId,
      branchKey: publications.branchKey,
    })
    .from(publications)
    .where(
      and(
        eq(publications.status, "published"),
        or(
          ...branches.map((row) =>
            and(
              eq(publications.submissionId, row.submissionId as string),
              eq(publications.feedId, row.feedId),
              eq(publications.branchKey, row.branchKey),
            ),
          ),
        ),
      ),
    )
    .orderBy(
      publications.submissionId,
      publications.feedId,
      publications.branchKey,
      desc(publications.publishedAt),
      desc(publications.id),
    );
  return new Map(newest.map((row) => [liveKey(row), row.id]));
}

/** A submission's entries in some feeds (those the reader moderates). */
export function submissionPublicationPage(
  db: Database,
  submissionId: string,
  feedIds: string[],
  query: { page: number; limit: number },
) {
  if (feedIds.length === 0) {
    return Promise.resolve({
      items: [],
      pagination: { page: query.page, limit: query.limit, hasNextPage: false, totalCount: 0 },
    } satisfies Paged<Publication>);
  }
  return pageOf(
    db,
    and(eq(publications.submissionId, submissionId), inArray(publications.feedId, feedIds)),
    query.page,
    query.limit,
  );
}

/** What a job published, or what a retraction job handled. */
export function jobPublicationPage(db: Database, jobId: string, query: { page: number; limit: number }) {
  return pageOf(
    db,
    or(eq(publications.jobId, jobId), eq(publications.retractionJobId, jobId)),
    query.page,
    query.limit,
  );
}
