import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, processingJobs } from "../db/schema.ts";
import { currentTraceParent, withSpan } from "../telemetry/tracing.ts";

/**
 * Asks for submissions' processing after approvals, in the approvals' own transaction (decision 0005): a pending
 * job row each, which is also the outbox the worker relays into its queue (decision 0009). The key names the
 * decision, so the same approval never asks twice, while a later approval of the same post (after an undo) is a new
 * request. One statement for any number of approvals. Answers per approval key the job's id, when it waits for the
 * feed's undo window, and the feed's acknowledgement setting; a decision that had already asked is left out.
 */
export async function requestProcessing(
  tx: Database,
  requests: ReadonlyArray<{ submissionId: string; feedId: string; moderationId: number }>,
): Promise<Map<string, { jobId: string; notBefore: Date | null; acknowledgements: unknown }>> {
  if (requests.length === 0) return new Map();
  // A span of its own, so the trace shows where the approval asked for its job; the job continues from it.
  return withSpan("processing.request", { "curate.jobs.requested": requests.length }, async () => {
    const traceParent = currentTraceParent();
    return insertRequests(tx, requests, traceParent);
  });
}

async function insertRequests(
  tx: Database,
  requests: ReadonlyArray<{ submissionId: string; feedId: string; moderationId: number }>,
  traceParent: string | null,
) {
  // The feed's undo window (moderation.undoWindowSeconds) holds the job in the outbox; the clock is the database's.
  const window = (
    feedId: string,
  ) => sql`coalesce((select (${feeds.config} -> 'moderation' ->> 'undoWindowSeconds')::int
    from ${feeds} where ${feeds.id} = ${feedId}), 0)`;
  const jobs = await tx
    .insert(processingJobs)
    .values(
      requests.map((request) => {
        const key = approvalJobKey(request);
        return {
          id: randomUUID(),
          kind: "approval" as const,
          submissionId: request.submissionId,
          feedId: request.feedId,
          status: "pending" as const,
          idempotencyKey: key,
          publicationKey: key,
          notBefore: sql`case when ${window(request.feedId)} > 0 then now() + make_interval(secs => ${window(request.feedId)}) end`,
          traceParent,
        };
      }),
    )
    .onConflictDoNothing({ target: processingJobs.idempotencyKey })
    // The feed's acknowledgement setting comes back with the job: the approval's reply needs it, at no statement
    // of its own.
    .returning({
      id: processingJobs.id,
      key: processingJobs.idempotencyKey,
      notBefore: processingJobs.notBefore,
      acknowledgements: sql<unknown>`(select ${feeds.config} -> 'acknowledgements' from ${feeds} where ${feeds.id} = ${processingJobs.feedId})`,
    });
  return new Map(
    jobs.map((job) => [
      job.key,
      { jobId: job.id, notBefore: job.notBefore, acknowledgements: job.acknowledgements },
    ]),
  );
}

/** The approval job of one decision (its moderation record). */
export function approvalJobKey(request: { submissionId: string; feedId: string; moderationId: number }) {
  return `approval:${request.submissionId}:${request.feedId}:${request.moderationId}`;
}
