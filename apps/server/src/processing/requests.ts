import { randomUUID } from "node:crypto";
import type { Database } from "../db/index.ts";
import { processingJobs } from "../db/schema.ts";

/**
 * Asks for a submission's processing in the caller's transaction (decision 0005): a pending job row, keyed so
 * that the same approval never asks twice. Returns the new job's id, or null when it was already asked for.
 */
export async function requestProcessing(
  tx: Database,
  request: { submissionId: string; feedId: string },
): Promise<string | null> {
  const [job] = await tx
    .insert(processingJobs)
    .values({
      id: randomUUID(),
      submissionId: request.submissionId,
      feedId: request.feedId,
      status: "pending",
      idempotencyKey: `approval:${request.submissionId}:${request.feedId}`,
    })
    .onConflictDoNothing({ target: processingJobs.idempotencyKey })
    .returning({ id: processingJobs.id });
  return job?.id ?? null;
}
