import {
  accountIdSchema,
  currentUserSchema,
  feedSummarySchema,
  linkCodeSchema,
  linkedAccountSchema,
  successEnvelopeSchema,
  updateProfileRequestSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { publicUser } from "../auth/user.ts";
import { type AppDeps, createRouter } from "../context.ts";
import {
  destinationLinks,
  listFeedsCuratedBy,
  listFeedsModeratedBy,
  listFeedsOwnedBy,
} from "../feeds/service.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import { createLinkCode } from "./link-codes.ts";
import { listLinkedAccounts, syncLinkedAccounts } from "./linked-accounts.ts";
import { updateProfile } from "./profile.ts";

const unauthenticated = errorResponse("Not signed in (UNAUTHENTICATED)");
const feedList = (description: string) =>
  jsonResponse(successEnvelopeSchema(z.array(feedSummarySchema)), description);

const meRoute = createRoute({
  method: "get",
  path: "/users/me",
  tags: ["users"],
  summary: "The signed-in user (200) or 401",
  responses: {
    200: jsonResponse(successEnvelopeSchema(currentUserSchema), "The user"),
    401: unauthenticated,
  },
});

const updateMeRoute = createRoute({
  method: "patch",
  path: "/users/me",
  tags: ["users"],
  summary:
    "Set or remove the signed-in user's profile image: the path POST /api/upload answered (`/uploads/<sha256>.<ext>`), or null",
  request: {
    body: { content: { "application/json": { schema: updateProfileRequestSchema } }, required: true },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(currentUserSchema), "The user as changed"),
    400: commonErrors[400],
    401: unauthenticated,
  },
});

const userFeedsRoute = createRoute({
  method: "get",
  path: "/users/{accountId}/feeds",
  tags: ["users"],
  summary: "Feeds an account created or administers",
  request: { params: z.object({ accountId: accountIdSchema }) },
  responses: { 200: feedList("Feeds"), 400: commonErrors[400] },
});

const approvedByMeRoute = createRoute({
  method: "get",
  path: "/activity/feeds/approved-by/me",
  tags: ["activity"],
  summary: "Feeds the signed-in user moderates (Approver For)",
  responses: { 200: feedList("Feeds"), 401: unauthenticated },
});

const curatedByMeRoute = createRoute({
  method: "get",
  path: "/activity/feeds/curated-by/me",
  tags: ["activity"],
  summary: "Feeds the signed-in user has submitted to (Curator For)",
  responses: { 200: feedList("Feeds"), 401: unauthenticated },
});

const linkedList = jsonResponse(successEnvelopeSchema(z.array(linkedAccountSchema)), "Linked accounts");

const linkedRoute = createRoute({
  method: "get",
  path: "/users/me/linked-accounts",
  tags: ["users"],
  summary: "The social handles linked to the signed-in user (the moderator rule recognises them)",
  responses: { 200: linkedList, 401: unauthenticated },
});

const syncLinkedRoute = createRoute({
  method: "post",
  path: "/users/me/linked-accounts/sync",
  tags: ["users"],
  summary:
    "Link the X accounts Crosspost says the user's NEAR account connected (and drop those it no longer lists)",
  responses: {
    200: linkedList,
    401: unauthenticated,
    403: errorResponse("Crosspost refused the account (FORBIDDEN)"),
    503: errorResponse("Crosspost cannot be reached (UNAVAILABLE)"),
  },
});

const linkCodeRoute = createRoute({
  method: "post",
  path: "/users/me/link-codes",
  tags: ["users"],
  summary:
    "A one-time code (15 minutes): posting or sending `!link <code>` to the bot from a Bluesky, Mastodon, Telegram or X account links that handle to the signed-in user",
  responses: {
    201: jsonResponse(successEnvelopeSchema(linkCodeSchema), "The code, and the command to post"),
    401: unauthenticated,
  },
});

export function userRoutes({ database: { db }, env, logger }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  router.openapi(linkedRoute, async (c) => ok(c, await listLinkedAccounts(db, requireUser(c))));
  router.openapi(syncLinkedRoute, async (c) =>
    ok(c, await syncLinkedAccounts(db, env.CROSSPOST_API_URL, requireUser(c), logger)),
  );
  router.openapi(linkCodeRoute, async (c) => created(c, await createLinkCode(db, requireUser(c))));
  router.openapi(meRoute, (c) => ok(c, publicUser(requireUser(c), env)));
  router.openapi(updateMeRoute, async (c) =>
    ok(c, await updateProfile(db, env, requireUser(c), c.req.valid("json")), "Profile updated."),
  );
  router.openapi(userFeedsRoute, async (c) =>
    ok(c, await listFeedsOwnedBy(db, c.req.valid("param").accountId, destinationLinks(env), c.get("user"))),
  );
  router.openapi(approvedByMeRoute, async (c) =>
    ok(c, await listFeedsModeratedBy(db, requireUser(c), destinationLinks(env))),
  );
  router.openapi(curatedByMeRoute, async (c) =>
    ok(c, await listFeedsCuratedBy(db, requireUser(c), destinationLinks(env))),
  );
  return router;
}
