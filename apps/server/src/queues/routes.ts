import {
  queueHealthSchema,
  queueReminderPageSchema,
  reminderListQuerySchema,
  reminderSettingsSchema,
  reminderSettingsUpdateSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import {
  getReminderSettings,
  listReminders,
  markRemindersRead,
  updateReminderSettings,
} from "./reminders.ts";
import { queueHealth } from "./service.ts";

const feedParam = idParam("feedId", "Feed id");
const moderatorErrors = {
  400: commonErrors[400],
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
  404: errorResponse("No such feed (NOT_FOUND)"),
};

const queueHealthRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/queue",
  tags: ["queues"],
  summary:
    "How long the feed's queue waits: pending count, oldest pending post, median time to decision (as of its last recomputation), the service level and posts past it",
  request: { params: feedParam },
  responses: {
    200: jsonResponse(successEnvelopeSchema(queueHealthSchema), "Queue health"),
    400: commonErrors[400],
    404: errorResponse("No such feed (NOT_FOUND)"),
  },
});

const settingsRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/reminders",
  tags: ["queues"],
  summary: "Whether you are reminded when this feed's queue waits past its service level (moderators)",
  request: { params: feedParam },
  responses: {
    200: jsonResponse(successEnvelopeSchema(reminderSettingsSchema), "Your reminder settings"),
    ...moderatorErrors,
  },
});

const updateSettingsRoute = createRoute({
  method: "put",
  path: "/feeds/{feedId}/reminders",
  tags: ["queues"],
  summary:
    "Opt in or out of queue reminders for this feed, in the app and optionally by Telegram (needs a linked Telegram account)",
  request: {
    params: feedParam,
    body: { content: { "application/json": { schema: reminderSettingsUpdateSchema } }, required: true },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(reminderSettingsSchema), "Your reminder settings"),
    ...moderatorErrors,
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/reminders",
  tags: ["queues"],
  summary: "Your queue reminders, newest first, with the unread count",
  request: { query: reminderListQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(queueReminderPageSchema), "A page of reminders"),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  },
});

const readBodySchema = z.strictObject({
  /** The reminders to mark read; all of yours when absent. */
  ids: z.array(z.number().int().min(1)).min(1).max(100).optional(),
});

const readRoute = createRoute({
  method: "post",
  path: "/reminders/read",
  tags: ["queues"],
  summary: "Mark your reminders read: those named, or all",
  request: { body: { content: { "application/json": { schema: readBodySchema } }, required: true } },
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.object({ marked: z.number().int() })), "How many changed"),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  },
});

export function queueRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "moderate" }, env);
  router.openapi(queueHealthRoute, async (c) => ok(c, await queueHealth(db, c.req.valid("param").feedId)));
  router.openapi(settingsRoute, async (c) =>
    ok(c, await getReminderSettings(db, env, requireUser(c), c.req.valid("param").feedId)),
  );
  router.openapi(updateSettingsRoute, async (c) =>
    ok(
      c,
      await updateReminderSettings(db, env, requireUser(c), c.req.valid("param").feedId, c.req.valid("json")),
    ),
  );
  router.openapi(listRoute, async (c) =>
    ok(c, await listReminders(db, requireUser(c), c.req.valid("query"))),
  );
  router.openapi(readRoute, async (c) =>
    ok(c, { marked: await markRemindersRead(db, requireUser(c), c.req.valid("json").ids) }),
  );
  return router;
}
