import { z } from "zod";

/** Activity types of the spec's data model. */
export const ACTIVITY_TYPES = [
  "CONTENT_SUBMISSION",
  "CONTENT_APPROVAL",
  "CONTENT_REJECTION",
  "TOKEN_BUY",
  "TOKEN_SELL",
  "POINTS_REDEMPTION",
  "POINTS_AWARDED",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_TIME_RANGES = ["day", "week", "month", "year", "all"] as const;
export type ActivityTimeRange = (typeof ACTIVITY_TIME_RANGES)[number];

const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const utcDate = (field: string) =>
  z
    .string()
    .refine((v) => UTC_ISO.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `Invalid datetime string for ${field}. Must be UTC and in ISO8601 format.`,
    })
    .transform((v) => new Date(v))
    .optional();

const integer = (name: string, min: number, max?: number) => {
  let n = z.number().int().min(min, `${name} must be at least ${min}`);
  if (max !== undefined) n = n.max(max, `${name} must be at most ${max}`);
  return z
    .string()
    .max(20)
    .regex(/^-?\d+$/, `${name} must be an integer`)
    .transform(Number)
    .pipe(n);
};

/** GET /api/activity/users/{userId} (time ranges, comma-separated types, UTC dates). */
export const activityQuerySchema = z
  .object({
    time_range: z.enum(ACTIVITY_TIME_RANGES).default("all"),
    types: z
      .string()
      .max(500)
      .optional()
      // Unknown types are dropped; when types were asked for and none is known, nothing matches (undefined =
      // no type filter at all).
      .transform((v) =>
        v === undefined || v.trim() === ""
          ? undefined
          : v
              .split(",")
              .map((t) => t.trim().toUpperCase())
              .filter((t): t is ActivityType => (ACTIVITY_TYPES as readonly string[]).includes(t)),
      ),
    from_date: utcDate("from_date"),
    to_date: utcDate("to_date"),
    limit: integer("limit", 1, 100).default(20),
    offset: integer("offset", 0).default(0),
    sortBy: z.enum(["timestamp"]).default("timestamp"),
    sortOrder: z.enum(["asc", "desc"]).default("desc"),
  })
  .refine((q) => !q.from_date || !q.to_date || q.from_date <= q.to_date, {
    message: "from_date must not be after to_date",
    path: ["from_date"],
  });

export const activitySchema = z.object({
  id: z.number(),
  user_id: z.string(),
  type: z.enum(ACTIVITY_TYPES),
  timestamp: z.string(),
  feed_id: z.string().nullable(),
  submission_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const activityPageSchema = z.object({
  items: z.array(activitySchema),
  pagination: z.object({
    page: z.number(),
    limit: z.number(),
    offset: z.number(),
    hasNextPage: z.boolean(),
    totalCount: z.number(),
  }),
});

export const userRanksSchema = z.object({
  curatorRank: z.number().nullable(),
  approverRank: z.number().nullable(),
});

export const siteStatsSchema = z.object({
  totalUsers: z.number(),
  totalSubmissions: z.number(),
  totalActivities: z.number(),
  pendingSubmissions: z.number(),
  approvedSubmissions: z.number(),
  rejectedSubmissions: z.number(),
});
