import { z } from "zod";
import { pageQuery, paginationSchema } from "./envelope.ts";
import { processingJobSchema } from "./processing.ts";

/** A feed's recap as the processing tab shows it: its config in short, and where its schedule stands. */
export const recapStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  schedule: z.string(),
  timezone: z.string(),
  /** The schedule in words, or null when it cannot be read. */
  description: z.string().nullable(),
  /** The next scheduled run (null when disabled or never). */
  nextRunAt: z.string().nullable(),
  /** Approvals up to this moment are covered by earlier runs (null before the first run). */
  coveredUntil: z.string().nullable(),
  lastRunAt: z.string().nullable(),
});
export type RecapStatus = z.infer<typeof recapStatusSchema>;

export const recapStatusListSchema = z.object({ recaps: z.array(recapStatusSchema) });

export const recapRunsQuerySchema = z.object({
  ...pageQuery,
  /** Only this recap's runs. */
  recapId: z.string().trim().min(1).max(64).optional(),
});

export const recapRunPageSchema = z.object({
  items: z.array(processingJobSchema),
  pagination: paginationSchema,
});

export const recapRunParamsSchema = z.object({
  feedId: z.string().trim().min(1, "Feed ID is required").max(64),
  recapId: z.string().trim().min(1, "A recap id is required").max(64),
});
