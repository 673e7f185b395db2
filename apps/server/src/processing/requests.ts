import { randomUUID } from "node:crypto";
import type { Database } from "../db/index.ts";
import { processingJobs } from "../db/schema.ts";

/**
 * Asks for a submission's processing after an approval, in the approval's own transaction (decision 0005): a
 * pending job row, which is also the outbox the worker relays into its queue (decision 0009). The key names the
 * decision, so the same approval never asks twice, while a later approval of the same post (after an undo) is
 * a new request. Returns the job's id, or null when this decision had already asked.
 */
export async function requestProcessing(
  tx: Database,
  request: { submissionId: string; feedId: string; moderationId: number },
): Promise<string | null> {
  const key = `approval:${request.submissionId}:${request.feedId}:${request.moderationId}`;
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
    })
    .onConflictDoNothing({ target: processingJobs.idempotencyKey })
    .returning({ id: processingJobs.id });
  return job?.id ?? null;
}
