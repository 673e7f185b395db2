import {
  apiTokenActivityPageSchema,
  apiTokenActivityQuerySchema,
  apiTokenCreatedSchema,
  apiTokenCreateRequestSchema,
  apiTokenIdParamsSchema,
  apiTokenListQuerySchema,
  apiTokenPageSchema,
  apiTokenSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import { createApiToken, listApiTokens, listTokenUses, revokeApiToken } from "./service.ts";

const sessionOnly = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Sent with an API token: tokens are made and revoked in the app only (FORBIDDEN)"),
};

const listRoute = createRoute({
  method: "get",
  path: "/users/me/api-tokens",
  tags: ["api tokens"],
  summary: "The signed-in user's personal API tokens, newest first (never their secrets)",
  // What tokens exist is for the person, not for the scripts holding them.
  scope: "session",
  request: { query: apiTokenListQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(apiTokenPageSchema), "The tokens"),
    400: commonErrors[400],
    ...sessionOnly,
  },
});

const createTokenRoute = createRoute({
  method: "post",
  path: "/users/me/api-tokens",
  tags: ["api tokens"],
  summary: "Make a personal API token; its secret is in this answer only",
  request: { body: { content: { "application/json": { schema: apiTokenCreateRequestSchema } } } },
  responses: {
    201: jsonResponse(successEnvelopeSchema(apiTokenCreatedSchema), "The token and, this once, its secret"),
    400: commonErrors[400],
    ...sessionOnly,
    409: errorResponse("The account holds the most active tokens it may (CONFLICT)"),
  },
});

const revokeRoute = createRoute({
  method: "delete",
  path: "/users/me/api-tokens/{id}",
  tags: ["api tokens"],
  summary: "Revoke a token: it is refused from the next request on",
  request: { params: apiTokenIdParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(apiTokenSchema), "The token as revoked"),
    ...sessionOnly,
    404: errorResponse("No such token of yours (NOT_FOUND)"),
  },
});

const activityRoute = createRoute({
  method: "get",
  path: "/users/me/api-tokens/activity",
  tags: ["api tokens"],
  summary: "The changes the signed-in user's tokens made, newest first, with the token that made each",
  scope: "session",
  request: { query: apiTokenActivityQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(apiTokenActivityPageSchema), "The changes"),
    400: commonErrors[400],
    ...sessionOnly,
  },
});

export function apiTokenRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "session" }, env);
  router.openapi(activityRoute, async (c) =>
    ok(c, await listTokenUses(db, requireUser(c), c.req.valid("query"))),
  );
  router.openapi(listRoute, async (c) =>
    ok(c, await listApiTokens(db, requireUser(c), c.req.valid("query"))),
  );
  router.openapi(createTokenRoute, async (c) =>
    created(c, await createApiToken(db, requireUser(c), c.req.valid("json")), "API token created."),
  );
  router.openapi(revokeRoute, async (c) =>
    ok(c, await revokeApiToken(db, requireUser(c), c.req.valid("param").id), "API token revoked."),
  );
  return router;
}
