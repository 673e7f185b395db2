import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { processingJobs, processingSteps } from "../src/db/schema.ts";
import { insertFeed, insertSubmission } from "./factories.ts";
import { eventually, type TestServer } from "./harness.ts";
import type { TestKey } from "./near.ts";
import { sessionHeaders } from "./session.ts";

const FINISHED = ["completed", "failed", "completed_with_errors"];

/**
 * Registers a transformer served at `entryPoint` through the API, as `owner`, and a feed whose stream runs it and
 * then the recording distributor (`@test/recorder`, which the server must have among its extra plugins).
 */
export async function feedWithExternalTransformer(
  server: TestServer,
  owner: { cookie: string; key: TestKey },
  feed: {
    id: string;
    description: string;
    plugin: string;
    entryPoint: string;
    config?: Record<string, unknown>;
  },
): Promise<void> {
  const registered = await server.json("/api/plugins", {
    method: "POST",
    headers: sessionHeaders(server, owner.cookie),
    body: JSON.stringify({
      name: feed.plugin,
      type: "transformer",
      repoUrl: `https://github.com/${feed.plugin.replace(/^@/, "")}`,
      entryPoint: feed.entryPoint,
    }),
  });
  expect(registered.status).toBe(201);
  await insertFeed(server.db, {
    id: feed.id,
    createdBy: owner.key.implicitAccountId,
    config: {
      id: feed.id,
      name: feed.id,
      description: feed.description,
      outputs: {
        stream: {
          enabled: true,
          transform: [{ plugin: feed.plugin, config: feed.config ?? {} }],
          distribute: [{ plugin: "@test/recorder" }],
        },
      },
    },
  });
}

/** Approves a new post in the feed as `ownerCookie` and waits for its job to finish; answers the job's status and first step. */
export async function approveAndFinish(
  server: TestServer,
  ownerCookie: string,
  feedId: string,
  content: string,
) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status, body } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, ownerCookie),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  expect(status).toBe(200);
  const jobId = body.data.processingJobId as string;
  let jobStatus = "";
  await eventually(async () => {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    jobStatus = job?.status ?? "";
    return FINISHED.includes(jobStatus);
  }, `job ${jobId} finishes`);
  const steps = await server.db
    .select()
    .from(processingSteps)
    .where(eq(processingSteps.jobId, jobId))
    .orderBy(processingSteps.stepOrder);
  return { jobStatus, step: steps[0] };
}
