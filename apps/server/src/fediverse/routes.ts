import {
  fediverseFeedParamsSchema,
  fediverseStatusSchema,
  fediverseUpdateSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { fediverseStatus, setFediverse } from "./service.ts";

const tags = ["fediverse"];
const ownerErrors = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the feed's owner or an admin (FORBIDDEN)"),
  404: errorResponse("Unknown feed (NOT_FOUND)"),
};

const statusRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/fediverse",
  tags,
  summary: "The feed's fediverse actor: on or off, its handle, followers and deliveries (feed managers)",
  request: { params: fediverseFeedParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(fediverseStatusSchema), "The feed's fediverse status"),
    400: commonErrors[400],
    ...ownerErrors,
  },
});

const updateRoute = createRoute({
  method: "put",
  path: "/feeds/{feedId}/fediverse",
  tags,
  summary: "Turn the feed's fediverse actor on or off (feed managers)",
  request: {
    params: fediverseFeedParamsSchema,
    body: { content: { "application/json": { schema: fediverseUpdateSchema } } },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(fediverseStatusSchema), "The feed's fediverse status"),
    400: commonErrors[400],
    ...ownerErrors,
    409: errorResponse("The server's PUBLIC_URL is not https, or the feed id is a retired actor (CONFLICT)"),
  },
});

/** A feed's fediverse settings (decision 0037); the ActivityPub endpoints themselves are Fedify's (app.ts). */
export function fediverseRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  router.openapi(statusRoute, async (c) =>
    ok(c, await fediverseStatus(db, env, requireUser(c), c.req.valid("param").feedId)),
  );
  router.openapi(updateRoute, async (c) =>
    ok(
      c,
      await setFediverse(db, env, requireUser(c), c.req.valid("param").feedId, c.req.valid("json").enabled),
    ),
  );
  return router;
}
