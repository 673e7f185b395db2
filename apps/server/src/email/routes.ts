import { timingSafeEqual } from "node:crypto";
import {
  caughtMailListQuerySchema,
  caughtMailPageSchema,
  caughtMailParamsSchema,
  caughtMailSchema,
  emailEventResultSchema,
  emailEventSchema,
  emailFeedParamsSchema,
  emailFeedStatusSchema,
  emailSubscribeRequestSchema,
  emailSubscribeResultSchema,
  emailSubscriberSummarySchema,
  emailSubscriptionSchema,
  emailSubscriptionUpdateSchema,
  emailTestRequestSchema,
  emailTestResultSchema,
  emailTokenQuerySchema,
  emailTokenRequestSchema,
  emailUnsubscribedSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { accepted, ok } from "../http/envelope.ts";
import { clientAddress } from "../limits/middleware.ts";
import { caughtMail, listCaughtMails } from "./catch-all.ts";
import { createMailer } from "./mailer.ts";
import {
  changeSubscriptionMode,
  confirmSubscription,
  emailStatus,
  exportSubscribers,
  reportMailEvent,
  sendTestMail,
  subscribe,
  subscriberSummary,
  subscriptionOf,
  unsubscribe,
} from "./service.ts";

/** Paths the mail provider and readers' mail programs call: no session, no Origin; each checks its own credential. */
export const EMAIL_ONE_CLICK_PATH = "/api/email/one-click";
export const EMAIL_EVENTS_PATH = "/api/email/events";

const tags = ["email"];
const readerOnly = {
  403: errorResponse(
    "Sent with an API token: subscriptions are a reader's own, made in the browser (FORBIDDEN)",
  ),
};

const statusRoute = createRoute({
  method: "get",
  path: "/email/feeds/{feedId}",
  tags,
  summary: "Whether readers can subscribe to the feed by email, and to what (every item, the digest)",
  request: { params: emailFeedParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(emailFeedStatusSchema), "The feed's email status"),
    400: commonErrors[400],
    404: errorResponse("Unknown feed (NOT_FOUND)"),
  },
});

const subscribeRoute = createRoute({
  method: "post",
  path: "/email/subscribe",
  tags,
  summary: "Ask for a feed by email: a confirmation mail is sent; nothing else until its link is used",
  scope: "session",
  request: { body: { content: { "application/json": { schema: emailSubscribeRequestSchema } } } },
  responses: {
    202: jsonResponse(successEnvelopeSchema(emailSubscribeResultSchema), "The same answer for every address"),
    400: commonErrors[400],
    ...readerOnly,
    404: errorResponse("Unknown feed (NOT_FOUND)"),
    409: errorResponse("Email is off on this server or for this feed, or the feed is full (CONFLICT)"),
    429: errorResponse("Too many requests from this client or for this address (RATE_LIMITED)"),
    503: errorResponse("The confirmation mail could not be sent (UNAVAILABLE)"),
  },
});

const confirmRoute = createRoute({
  method: "post",
  path: "/email/confirm",
  tags,
  summary:
    "Confirm a subscription with the mail's single-use, expiring token (the confirmation page's button)",
  scope: "session",
  request: { body: { content: { "application/json": { schema: emailTokenRequestSchema } } } },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(emailSubscriptionSchema),
      "The subscription, with its manage token",
    ),
    400: commonErrors[400],
    ...readerOnly,
    404: errorResponse("The link expired or was used already (NOT_FOUND)"),
  },
});

const subscriptionRoute = createRoute({
  method: "get",
  path: "/email/subscription",
  tags,
  summary: "The subscription a manage link names (never its address)",
  request: { query: emailTokenQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(emailSubscriptionSchema), "The subscription"),
    400: commonErrors[400],
    404: errorResponse("No such subscription (NOT_FOUND)"),
  },
});

const updateRoute = createRoute({
  method: "put",
  path: "/email/subscription",
  tags,
  summary: "Change what a subscription receives (every item or the digest)",
  scope: "session",
  request: { body: { content: { "application/json": { schema: emailSubscriptionUpdateSchema } } } },
  responses: {
    200: jsonResponse(successEnvelopeSchema(emailSubscriptionSchema), "The subscription"),
    400: commonErrors[400],
    ...readerOnly,
    404: errorResponse("No such subscription (NOT_FOUND)"),
  },
});

const unsubscribeRoute = createRoute({
  method: "post",
  path: "/email/unsubscribe",
  tags,
  summary: "Unsubscribe (the unsubscribe page's button): the address is deleted; a repeat does nothing",
  scope: "session",
  request: { body: { content: { "application/json": { schema: emailTokenRequestSchema } } } },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(emailUnsubscribedSchema.nullable()),
      "The feed left, or null if already",
    ),
    400: commonErrors[400],
    ...readerOnly,
    404: errorResponse("The link is not valid (NOT_FOUND)"),
  },
});

const oneClickRoute = createRoute({
  method: "post",
  path: "/email/one-click",
  tags,
  summary:
    "RFC 8058 one-click unsubscribe (List-Unsubscribe-Post: List-Unsubscribe=One-Click), from mail programs",
  scope: "session",
  request: { query: emailTokenQuerySchema },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(z.object({ unsubscribed: z.boolean() })),
      "Unsubscribed (or already)",
    ),
    400: commonErrors[400],
    ...readerOnly,
    404: errorResponse("The link is not valid (NOT_FOUND)"),
  },
});

const eventsRoute = createRoute({
  method: "post",
  path: "/email/events",
  tags,
  summary: "A bounce or complaint from the mail provider (HTTP Basic, password EMAIL_WEBHOOK_SECRET)",
  scope: "session",
  request: { body: { content: { "application/json": { schema: emailEventSchema } } } },
  responses: {
    200: jsonResponse(successEnvelopeSchema(emailEventResultSchema), "What was suppressed"),
    400: commonErrors[400],
    401: errorResponse("The webhook password is missing or wrong (UNAUTHENTICATED)"),
  },
});

const ownerErrors = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the feed's owner or an admin (FORBIDDEN)"),
  404: errorResponse("Unknown feed (NOT_FOUND)"),
};

const summaryRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/email",
  tags,
  summary:
    "The feed's subscribers in numbers: by state and mode, 30 days of growth, mails waiting (feed managers)",
  request: { params: emailFeedParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(emailSubscriberSummarySchema), "The summary"),
    400: commonErrors[400],
    ...ownerErrors,
  },
});

const exportRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/email/export",
  tags,
  summary: "The feed's subscriber list as CSV (feed managers, in the browser only)",
  // Addresses leave the server here: a person's click, never a script's token.
  scope: "session" as const,
  request: { params: emailFeedParamsSchema },
  responses: {
    200: {
      description: "email,mode,status,subscribed_at,confirmed_at",
      content: { "text/csv": { schema: z.string() } },
    },
    ...ownerErrors,
  },
});

const testRoute = createRoute({
  method: "post",
  path: "/feeds/{feedId}/email/test",
  tags,
  summary: "Send me a test: a sample mail of the feed to one address (feed managers; paced)",
  request: {
    params: emailFeedParamsSchema,
    body: { content: { "application/json": { schema: emailTestRequestSchema } } },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(emailTestResultSchema), "Sent"),
    400: commonErrors[400],
    ...ownerErrors,
    409: errorResponse("Email is off on this server (CONFLICT)"),
    429: errorResponse("Too many test mails this hour (RATE_LIMITED)"),
    503: errorResponse("The relay could not be reached (UNAVAILABLE)"),
  },
});

const devMailsRoute = createRoute({
  method: "get",
  path: "/test/mails",
  tags,
  summary: "The development catch-all's mails, newest first (development only, without SMTP_URL)",
  request: { query: caughtMailListQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(caughtMailPageSchema), "A page of the caught mails"),
    400: commonErrors[400],
  },
});

const devMailRoute = createRoute({
  method: "get",
  path: "/test/mails/{id}",
  tags,
  summary: "One caught mail with its headers and both parts (development only, without SMTP_URL)",
  request: { params: caughtMailParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(caughtMailSchema), "The mail"),
    400: commonErrors[400],
    404: errorResponse("No caught mail has this id (NOT_FOUND)"),
  },
});

/** Whether HTTP Basic credentials carry the webhook password (any user name). */
function webhookAuthorized(c: Context, secret: string): boolean {
  const header = c.req.header("authorization") ?? "";
  const match = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match) return false;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const password = Buffer.from(decoded.slice(decoded.indexOf(":") + 1));
  const expected = Buffer.from(secret);
  return password.length === expected.length && timingSafeEqual(password, expected);
}

export function emailRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  // One relay connection per mail here (confirmations and tests are few); deliveries pool theirs on the worker.
  const mailer = createMailer(env.MAIL, env.EMAIL_FROM);
  const deps = { db, env, mailer };

  router.openapi(statusRoute, async (c) => ok(c, await emailStatus(db, env, c.req.valid("param").feedId)));
  router.openapi(subscribeRoute, async (c) =>
    accepted(c, await subscribe(deps, c.req.valid("json"), clientAddress(c, env.TRUST_PROXY))),
  );
  router.openapi(confirmRoute, async (c) =>
    ok(c, await confirmSubscription(db, c.req.valid("json").token), "Subscription confirmed."),
  );
  router.openapi(subscriptionRoute, async (c) => ok(c, await subscriptionOf(db, c.req.valid("query").token)));
  router.openapi(updateRoute, async (c) => {
    const { token, mode } = c.req.valid("json");
    return ok(c, await changeSubscriptionMode(db, token, mode), "Subscription updated.");
  });
  router.openapi(unsubscribeRoute, async (c) =>
    ok(c, await unsubscribe(db, c.req.valid("json").token), "Unsubscribed."),
  );
  router.openapi(oneClickRoute, async (c) => {
    await unsubscribe(db, c.req.valid("query").token);
    return ok(c, { unsubscribed: true }, "Unsubscribed.");
  });
  if (env.EMAIL_WEBHOOK_SECRET) {
    const secret = env.EMAIL_WEBHOOK_SECRET;
    router.use("/email/events", async (c, next) => {
      if (!webhookAuthorized(c, secret)) {
        c.header("WWW-Authenticate", 'Basic realm="curate-email"');
        throw new AppError("UNAUTHENTICATED", "The email webhook's password is missing or wrong.");
      }
      return next();
    });
    router.openapi(eventsRoute, async (c) => ok(c, await reportMailEvent(db, c.req.valid("json"))));
  }
  router.openapi(summaryRoute, async (c) =>
    ok(c, await subscriberSummary(db, env, requireUser(c), c.req.valid("param").feedId)),
  );
  router.documented(exportRoute, async (c) => {
    const param = emailFeedParamsSchema.safeParse(c.req.param());
    if (!param.success) throw AppError.fromZod(param.error, "path parameters");
    const { feedId, chunks } = await exportSubscribers(db, env, requireUser(c), param.data.feedId);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return c.body(body, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${feedId}-subscribers.csv"`,
      "Cache-Control": "no-store",
    });
  });
  router.openapi(testRoute, async (c) =>
    ok(c, await sendTestMail(deps, requireUser(c), c.req.valid("param").feedId, c.req.valid("json").email)),
  );
  // Fails closed as the other /api/test routes do: never in production, nor on a server others can reach.
  if (env.ENABLE_TEST_ROUTES && env.MAIL.kind === "catch-all") {
    const dir = env.MAIL.dir;
    router.openapi(devMailsRoute, async (c) => ok(c, await listCaughtMails(dir, c.req.valid("query"))));
    router.openapi(devMailRoute, async (c) => ok(c, await caughtMail(dir, c.req.valid("param").id)));
  }
  return router;
}
