import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, processingJobs } from "../db/schema.ts";

/**
 * Asks for a submission's processing after an approval, in the approval's own transaction (decision 0005): a
 * pending job row, which is also the outbox the worker relays into its queue (decision 0009). The key names the
 * decision, so the same approval never asks twice, while a later approval of the same post (after an undo) is
 * a new request. Returns the job's id, or null when this decision had already asked.
 */
export async function requestProcessing(
  tx: Database,
  request: { submissionId: string; feedId: string; moderationId: number },
): Promise<{ jobId: string; notBefore: Date | null; acknowledgements: unknown } | null> {
  const key = approvalJobKey(request);
  // The feed's undo window (moderation.undoWindowSeconds) holds the job in the outbox; the clock is the database's.
  const window = sql`coalesce((select (${feeds.config} -> 'moderation' ->> 'undoWindowSeconds')::int
    from ${feeds} where ${feeds.id} = ${request.feedId}), 0)`;
  const [job] = await tx
    .insert(processingJobs)
    .values({
      id: randomUUID(),
      kind: "approval",
      submissionId: request.submissionId,
      feedId: request.feedId,
      status: "pending",
      idempotencyKey: key,
      publicationKey: key,
      notBefore: sql`case when ${window} > 0 then now() + make_interval(secs => ${window}) end`,
    })
    .onConflictDoNothing({ target: processingJobs.idempotencyKey })
    // The feed's acknowledgement setting comes back with the job: the approval's reply needs it, and intake
    // applies hundreds of approvals a batch, so it costs no statement of its own.
    .returning({
      id: processingJobs.id,
      notBefore: processingJobs.notBefore,
      acknowledgements: sql<unknown>`(select ${feeds.config} -> 'acknowledgements' from ${feeds} where ${feeds.id} = ${request.feedId})`,
    });
  return job ? { jobId: job.id, notBefore: job.notBefore, acknowledgements: job.acknowledgements } : null;
}

/** The approval job of one decision (its moderation record). */
export function approvalJobKey(request: { submissionId: string; feedId: string; moderationId: number }) {
  return `approval:${request.submissionId}:${request.feedId}:${request.moderationId}`;
}
