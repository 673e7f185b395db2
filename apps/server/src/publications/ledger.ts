import type { Paged, Publication, PublicationStatus } from "@curate/core";
import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { publications } from "../db/schema.ts";

type PublicationRow = typeof publications.$inferSelect;

/** What a distribution step that sent something hands the ledger. */
export interface SentPublication {
  job: { id: string; submissionId: string | null; feedId: string };
  step: { id: string; branch: number | null; pluginName: string; stepName: string | null; config: unknown };
  /** The send's receipt (the step's output). */
  receipt: unknown;
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
  // A replay that edited its earlier publication in place (the same message, page, row or item) is still that one
  // publication: the entry moves to the new job, keeping when it first went out, so a retraction removes it once.
  let publishedAt: Date | undefined;
  if (referenceId && sent.job.submissionId && isEditReceipt(sent.receipt)) {
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
      jobId: sent.job.id,
      stepId: sent.step.id,
      branch: sent.step.branch ?? 0,
      pluginName: sent.step.pluginName,
      stepName: sent.step.stepName,
      config: sent.step.config ?? null,
      referenceKind,
      referenceId,
      referenceUrl: text(reference.url),
      receipt: sent.receipt ?? null,
      ...(publishedAt ? { publishedAt } : {}),
    })
    .onConflictDoNothing({ target: publications.stepId });
}

/** The receipt of a replay that changed the earlier publication instead of making a new one. */
function isEditReceipt(receipt: unknown): boolean {
  if (!receipt || typeof receipt !== "object") return false;
  const { edited, updated, replaced } = receipt as Record<string, unknown>;
  return typeof edited === "boolean" || updated === true || replaced === true;
}

export function toPublication(row: PublicationRow): Publication {
  return {
    id: row.id,
    submissionId: row.submissionId,
    feedId: row.feedId,
    pluginName: row.pluginName,
    branch: row.branch,
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
  return {
    items: rows.slice(0, limit).map(toPublication),
    pagination: { page, limit, hasNextPage, totalCount: Number(total) },
  };
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
