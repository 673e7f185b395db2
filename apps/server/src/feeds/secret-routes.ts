import {
  feedSecretNameSchema,
  feedSecretSchema,
  setFeedSecretBodySchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { resumeFeedChannels } from "../processing/pauses.ts";
import { deleteFeedSecret, listFeedSecrets, setFeedSecret } from "./secret-store.ts";

const feedParam = z.object({ id: z.string().min(1).max(200).describe("Feed id") });
const secretParams = feedParam.extend({
  name: feedSecretNameSchema.describe("The secret's name (`{{NAME}}`)"),
});

const managerErrors = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the feed's owner or admin (FORBIDDEN)"),
  404: errorResponse("No such feed, or no such secret (NOT_FOUND)"),
};

const listRoute = createRoute({
  method: "get",
  path: "/feeds/{id}/secrets",
  tags: ["feeds"],
  summary: "A feed's secrets by name and date, never their values (owner, admins, super admins)",
  request: { params: feedParam },
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.array(feedSecretSchema)), "The secrets"),
    ...managerErrors,
  },
});

const setRoute = createRoute({
  method: "put",
  path: "/feeds/{id}/secrets/{name}",
  tags: ["feeds"],
  summary:
    "Add a secret or replace its value; the feed's config uses it as {{NAME}} (owner, admins, super admins)",
  request: {
    params: secretParams,
    body: { content: { "application/json": { schema: setFeedSecretBodySchema } }, required: true },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(feedSecretSchema), "Stored; the value is never returned"),
    400: commonErrors[400],
    ...managerErrors,
    503: errorResponse("This server has no SECRETS_KEY to seal secrets with (UNAVAILABLE)"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/feeds/{id}/secrets/{name}",
  tags: ["feeds"],
  summary: "Delete a secret (owner, admins, super admins)",
  request: { params: secretParams },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(z.object({ name: z.string(), deleted: z.literal(true) })),
      "Deleted",
    ),
    ...managerErrors,
  },
});

export function feedSecretRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  router.openapi(listRoute, async (c) =>
    ok(c, await listFeedSecrets(db, env, requireUser(c), c.req.valid("param").id)),
  );
  router.openapi(setRoute, async (c) => {
    const { id, name } = c.req.valid("param");
    const { replaced, ...secret } = await setFeedSecret(
      db,
      env,
      requireUser(c),
      id,
      name,
      c.req.valid("json").value,
    );
    // A new value may be the fix for credentials a channel refused: held publications run again.
    await resumeFeedChannels(db, id.toLowerCase(), requireUser(c).nearAccountId);
    return ok(c, secret, replaced ? `Secret ${name} replaced.` : `Secret ${name} added.`);
  });
  router.openapi(deleteRoute, async (c) => {
    const { id, name } = c.req.valid("param");
    await deleteFeedSecret(db, env, requireUser(c), id, name);
    return ok(c, { name, deleted: true as const }, `Secret ${name} deleted.`);
  });
  return router;
}
