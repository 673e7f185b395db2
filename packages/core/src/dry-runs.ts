import { z } from "zod";
import { feedConfigSchema } from "./feeds.ts";
import { processingJobSchema, processingStepSchema, stepErrorSchema } from "./processing.ts";

/** Test this config: how many of the feed's latest approved submissions it runs against by default, and at most. */
export const TEST_BENCH_DEFAULT_COUNT = 5;
export const TEST_BENCH_MAX_COUNT = 20;

/**
 * An RSS channel's item as feed readers list it, every text plain and as written (markup in a post is data): made
 * by the function that writes the feed's documents, so a preview shows what a send publishes.
 */
export const rssReaderItemSchema = z.object({
  /** The Atom and JSON Feed id. */
  id: z.string(),
  guid: z.string(),
  title: z.string(),
  link: z.string(),
  /** ISO 8601. */
  published: z.string(),
  author: z.string().nullable(),
  /** The description (RSS), summary (Atom, JSON Feed). */
  summary: z.string().nullable(),
  /** The body, as far as a document carries it. */
  content: z.string().nullable(),
  image: z.string().nullable(),
  categories: z.array(z.string()),
});
export type RssReaderItem = z.infer<typeof rssReaderItemSchema>;

/**
 * What a rendered channel would do with the publish ledger: post a `new` publication, `edit` the live one of its
 * branch (`replaces` names it), or `skip` because the live one cannot be edited (the channel keeps it as it is).
 */
export const DRY_RUN_OUTCOMES = ["new", "edit", "skip"] as const;
export type DryRunOutcome = (typeof DRY_RUN_OUTCOMES)[number];

/**
 * What one of a feed's channels would publish in a dry run: the request its distributor rendered (sent nowhere),
 * or the error of the step that stopped it. `replaces` names the live publication a re-run would edit or leave.
 */
export const dryRunChannelSchema = z.object({
  branch: z.number().int(),
  pluginName: z.string(),
  /** The channel's readable name ("Telegram"). */
  stepName: z.string().nullable(),
  status: z.enum(["rendered", "failed", "not_run"]),
  /** The channel's own name of the request (`sendMessage`, `editMessageText`, `pages.create`, …). */
  action: z.string().nullable(),
  /** The request as the channel would receive it, credentials left out. */
  request: z.unknown().nullable(),
  /** What readers of a feed channel (RSS) are shown of it; null for channels whose request is what they show. */
  shown: rssReaderItemSchema.nullable(),
  /** Null when the channel did not render (failed or not run). */
  outcome: z.enum(DRY_RUN_OUTCOMES).nullable(),
  replaces: z
    .object({
      jobId: z.string(),
      /** The ledger entry (absent for a recap, whose earlier run is found through its retries). */
      publicationId: z.string().optional(),
      reference: z
        .object({ kind: z.string(), id: z.string().optional(), url: z.string().optional() })
        .nullable(),
    })
    .nullable(),
  /** The step that failed on this channel's way (a global transform, one of its own, or its render). */
  error: stepErrorSchema.nullable(),
  failedStep: z.string().nullable(),
  /** An AI transform wrote part of what this channel would publish. */
  ai: z.boolean(),
});
export type DryRunChannel = z.infer<typeof dryRunChannelSchema>;

/** A dry-run job: stored and labelled as such, never counted as published. */
export const dryRunResultSchema = z.object({
  job: processingJobSchema,
  steps: z.array(processingStepSchema),
  channels: z.array(dryRunChannelSchema),
});
export type DryRunResult = z.infer<typeof dryRunResultSchema>;

export const previewRequestSchema = z.object({
  submissionId: z.string().trim().min(1, "submissionId is required").max(64),
  feedId: z.string().trim().min(1, "feedId is required").max(64),
});

export const testBenchRequestSchema = z.object({
  /** The working config (saved or not): the edit page's form or JSON view. */
  config: feedConfigSchema,
  count: z.coerce
    .number()
    .int()
    .min(1, "count must be at least 1")
    .max(TEST_BENCH_MAX_COUNT, `count must be at most ${TEST_BENCH_MAX_COUNT}`)
    .default(TEST_BENCH_DEFAULT_COUNT),
});
export type TestBenchRequest = z.input<typeof testBenchRequestSchema>;

export const testBenchRunSchema = z.object({
  submissionId: z.string(),
  content: z.string(),
  username: z.string(),
  approvedAt: z.string().nullable(),
  result: dryRunResultSchema,
});
export type TestBenchRun = z.infer<typeof testBenchRunSchema>;

export const testBenchAnswerSchema = z.object({
  runs: z.array(testBenchRunSchema),
  /** Why nothing ran (no approved submissions yet, or a config with nothing to publish). */
  note: z.string().nullable(),
});
export type TestBenchAnswer = z.infer<typeof testBenchAnswerSchema>;
