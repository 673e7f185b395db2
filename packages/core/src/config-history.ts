import { z } from "zod";
import { pagedSchema, pageQuery } from "./envelope.ts";

export const CONFIG_VERSION_KINDS = ["created", "saved", "restored"] as const;
export type ConfigVersionKind = (typeof CONFIG_VERSION_KINDS)[number];

export const configChangeSchema = z.object({
  path: z.string(),
  kind: z.enum(["added", "removed", "changed"]),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});

/** One saved version of a feed's config, as the history lists it. */
export const feedVersionSchema = z.object({
  feedId: z.string(),
  version: z.number().int(),
  kind: z.enum(CONFIG_VERSION_KINDS),
  /** The version a restore brought back. */
  restoredFrom: z.number().int().nullable(),
  savedBy: z.string().nullable(),
  savedAt: z.string(),
  /** The save added, removed or reconfigured a channel (a distributor of the stream or a recap). */
  channelsChanged: z.boolean(),
  /** What changed against the version before (the first 200 changes; `changeCount` counts them all). */
  changes: z.array(configChangeSchema),
  changeCount: z.number().int(),
});
export type FeedVersion = z.infer<typeof feedVersionSchema>;

/** GET /api/feeds/{id}/versions/{n}: a version with the config it saved. */
export const feedVersionDetailSchema = feedVersionSchema.extend({
  config: z.record(z.string(), z.unknown()),
});
export type FeedVersionDetail = z.infer<typeof feedVersionDetailSchema>;

export const feedVersionPageSchema = pagedSchema(feedVersionSchema);

export const feedVersionListQuerySchema = z.object({
  ...pageQuery,
});

export const feedVersionParamsSchema = z.object({
  id: z.string().min(1).max(200),
  n: z.coerce
    .number({ error: "A version is a whole number" })
    .int("A version is a whole number")
    .min(1, "Versions start at 1")
    .max(1_000_000_000, "No such version"),
});
