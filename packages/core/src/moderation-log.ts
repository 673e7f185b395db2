import { z } from "zod";
import { pageSizeQuery } from "./envelope.ts";
import { LOG_ACTIONS, LOG_VIAS, REDACTABLE_LOG_FIELDS } from "./moderation-log-rules.ts";
import { PLATFORMS } from "./platforms.ts";

/**
 * One part of an entry: its digest always; its value and the salt it was digested with unless withheld — kept
 * private by the feed's choice, or redacted for good (then `redactedBy` is the redaction's entry).
 */
export const logFieldSchema = z.object({
  digest: z.string(),
  value: z.unknown().optional(),
  salt: z.string().optional(),
  withheld: z.enum(["private", "redacted"]).optional(),
  redactedBy: z.number().int().optional(),
});
export type LogFieldView = z.infer<typeof logFieldSchema>;

/** An entry as anyone reads it, and as a verifier recomputes it (docs/decisions/0027). */
export const logEntrySchema = z.object({
  feed: z.string(),
  seq: z.number().int(),
  at: z.string(),
  action: z.enum(LOG_ACTIONS),
  via: z.enum(LOG_VIAS),
  network: z.string().nullable(),
  /** The SHA-256 of the entry before (64 zeros before the genesis). */
  prev: z.string(),
  hash: z.string(),
  fields: z.record(z.string(), logFieldSchema),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

/** The instance's Ed25519 signature over a feed's head at one entry. */
export const logSignatureSchema = z.object({
  feed: z.string(),
  seq: z.number().int(),
  hash: z.string(),
  signedAt: z.string(),
  key: z.string(),
  signature: z.string(),
});
export type LogSignature = z.infer<typeof logSignatureSchema>;

/** What the server's own background check last found in the stored log. */
export const logIntegritySchema = z.object({
  status: z.enum(["ok", "broken", "unchecked"]),
  checkedAt: z.string().nullable(),
  /** The last entry the check covered. */
  checkedThrough: z.number().int().nullable(),
  /** The first entry that breaks the chain, and how. */
  brokenAt: z.number().int().nullable(),
  problem: z.string().nullable(),
});
export type LogIntegrity = z.infer<typeof logIntegritySchema>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day (YYYY-MM-DD)")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "must be a day (YYYY-MM-DD)");

/** GET /api/feeds/{feedId}/log. */
export const logQuerySchema = z.object({
  /** The `nextCursor` of the page before. */
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "cursor must be the nextCursor of a page")
    .transform(Number)
    .optional(),
  limit: pageSizeQuery(),
  order: z.enum(["newest", "oldest"]).default("newest"),
  action: z.enum(LOG_ACTIONS).optional(),
  /** A NEAR account or a handle (without "@"), as entries name them. */
  moderator: z.string().trim().min(1).max(200).optional(),
  network: z.enum(PLATFORMS).optional(),
  /** UTC days, both included. */
  from: day.optional(),
  to: day.optional(),
});
export type LogQuery = z.input<typeof logQuerySchema>;

export const logHeadSchema = z.object({ seq: z.number().int(), hash: z.string(), at: z.string() });

export const logPageSchema = z.object({
  feedId: z.string(),
  items: z.array(logEntrySchema),
  pagination: z.object({
    limit: z.number().int(),
    hasNextPage: z.boolean(),
    nextCursor: z.string().nullable(),
  }),
  /** The newest entry (null: the log has not started). */
  head: logHeadSchema.nullable(),
  /** The latest signed head. */
  signature: logSignatureSchema.nullable(),
  integrity: logIntegritySchema,
});
export type LogPage = z.infer<typeof logPageSchema>;

/** POST /api/feeds/{feedId}/log/{seq}/redact: withhold parts of an entry for good (feed managers). */
export const logRedactRequestSchema = z.object({
  fields: z
    .array(z.enum(REDACTABLE_LOG_FIELDS))
    .min(1, "Name at least one field to redact")
    .max(REDACTABLE_LOG_FIELDS.length),
  reason: z
    .string({ error: "A reason is required" })
    .trim()
    .min(1, "A reason is required")
    .max(500, "The reason is too long (at most 500 characters)"),
});
export type LogRedactRequest = z.infer<typeof logRedactRequestSchema>;

export const logRedactAnswerSchema = z.object({ entry: logEntrySchema, redaction: logEntrySchema });

export const logEntryParamsSchema = z.object({
  feedId: z.string().min(1).max(200),
  seq: z
    .string()
    .regex(/^\d{1,15}$/, "seq must be an entry number")
    .transform(Number),
});

/** The document at /.well-known/curate/log-key.json. */
export const logKeysSchema = z.object({
  format: z.literal("curate-log-keys"),
  version: z.literal(1),
  keys: z.array(
    z.object({
      id: z.string(),
      algorithm: z.literal("Ed25519"),
      /** The raw 32-byte public key, base64. */
      publicKey: z.string(),
      current: z.boolean(),
      /** When it first signed a head here (null: not yet). */
      firstUsedAt: z.string().nullable(),
    }),
  ),
});
export type LogKeys = z.infer<typeof logKeysSchema>;
