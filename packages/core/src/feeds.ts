import { z } from "zod";
import { FEED_ID_PATTERN, MIN_POLLING_INTERVAL_MS } from "./feed-rules.ts";

export const feedIdSchema = z
  .string()
  .min(1, "Feed ID is required")
  .max(64)
  .regex(FEED_ID_PATTERN, "Feed ID may only hold lower-case letters, digits, - and _");

const configMap = z.record(z.string(), z.unknown());

export const transformStepSchema = z.looseObject({
  plugin: z.string().min(1),
  config: configMap.optional(),
});

export const distributorSchema = z.looseObject({
  plugin: z.string().min(1),
  config: configMap.optional(),
  transform: z.array(transformStepSchema).optional(),
});

export const searchSchema = z.looseObject({
  searchId: z.string().optional(),
  type: z.string().optional(),
  query: z.string().optional(),
  pageSize: z.number().int().positive().optional(),
  language: z.string().optional(),
  platformArgs: configMap.optional(),
});

export const sourceSchema = z.looseObject({
  plugin: z.string().min(1),
  config: configMap.optional(),
  search: z.array(searchSchema).optional(),
});

export const streamOutputSchema = z.looseObject({
  enabled: z.boolean(),
  transform: z.array(transformStepSchema).optional(),
  distribute: z.array(distributorSchema).optional(),
});

const recapSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  schedule: z.string().optional(),
  timezone: z.string().optional(),
  transform: z.array(transformStepSchema).optional(),
  batchTransform: z.array(transformStepSchema).optional(),
  distribute: z.array(distributorSchema).optional(),
});

const handlesByPlatform = z.record(z.string(), z.array(z.string()));

export const feedConfigSchema = z.looseObject({
  id: feedIdSchema,
  name: z.string().min(1, "Feed name is required"),
  description: z.string().min(1, "Description is required"),
  image: z.union([z.url(), z.literal("")]).optional(),
  enabled: z.boolean().optional(),
  admins: z.array(z.string()).optional(),
  pollingIntervalMs: z
    .number()
    .int()
    .positive()
    .min(MIN_POLLING_INTERVAL_MS, `Polling interval must be at least ${MIN_POLLING_INTERVAL_MS} ms`)
    .optional(),
  moderation: z
    .looseObject({ approvers: handlesByPlatform.optional(), blacklist: handlesByPlatform.optional() })
    .optional(),
  sources: z.array(sourceSchema).optional(),
  ingestion: z
    .looseObject({ enabled: z.boolean().optional(), schedule: z.string().min(1).optional() })
    .optional(),
  outputs: z
    .looseObject({
      stream: streamOutputSchema.optional(),
      recap: z.union([recapSchema, z.array(recapSchema)]).optional(),
    })
    .optional(),
});
export type FeedConfig = z.infer<typeof feedConfigSchema>;

export const feedSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  image: z.string().nullable(),
  createdBy: z.string().nullable(),
  admins: z.array(z.string()),
  config: feedConfigSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Feed = z.infer<typeof feedSchema>;
