import { successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { commonErrors, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { type AppDeps, createRouter } from "../http/router.ts";
import {
  ACTIVITY_TIME_RANGES,
  ACTIVITY_TYPES,
  type ActivityType,
  getSiteStats,
  getUserRanks,
  listUserActivity,
} from "./service.ts";

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
    .regex(/^-?\d+$/, `${name} must be an integer`)
    .transform(Number)
    .pipe(n);
};

const activityQuerySchema = z
  .object({
    time_range: z.enum(ACTIVITY_TIME_RANGES).default("all"),
    types: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
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

const activitySchema = z.object({
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

const userParam = idParam("userId", "NEAR account id or social handle the activity belongs to");

const listRoute = createRoute({
  method: "get",
  path: "/activity/users/{userId}",
  tags: ["activity"],
  summary: "A user's activity (submissions and decisions), filtered and paged by offset",
  request: { params: userParam, query: activityQuerySchema },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(
        z.object({
          items: z.array(activitySchema),
          pagination: z.object({
            page: z.number(),
            limit: z.number(),
            offset: z.number(),
            hasNextPage: z.boolean(),
            totalCount: z.number(),
          }),
        }),
      ),
      "Activity",
    ),
    400: commonErrors[400],
  },
});

const ranksRoute = createRoute({
  method: "get",
  path: "/activity/users/{userId}/ranks",
  tags: ["activity"],
  summary: "A user's curator and approver ranks (null when unranked)",
  request: { params: userParam },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(
        z.object({ curatorRank: z.number().nullable(), approverRank: z.number().nullable() }),
      ),
      "Ranks",
    ),
  },
});

const statsRoute = createRoute({
  method: "get",
  path: "/activity/stats",
  tags: ["activity"],
  summary: "Site-wide totals",
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(
        z.object({
          totalUsers: z.number(),
          totalSubmissions: z.number(),
          totalActivities: z.number(),
          pendingSubmissions: z.number(),
          approvedSubmissions: z.number(),
          rejectedSubmissions: z.number(),
        }),
      ),
      "Totals",
    ),
  },
});

export function activityRoutes({ database: { db } }: AppDeps) {
  const router = createRouter();
  router.openapi(statsRoute, async (c) => ok(c, await getSiteStats(db)));
  router.openapi(ranksRoute, async (c) => ok(c, await getUserRanks(db, c.req.valid("param").userId)));
  router.openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const page = await listUserActivity(db, c.req.valid("param").userId, {
      timeRange: q.time_range,
      types: q.types,
      fromDate: q.from_date,
      toDate: q.to_date,
      limit: q.limit,
      offset: q.offset,
      sortOrder: q.sortOrder,
    });
    return ok(c, page);
  });
  return router;
}
