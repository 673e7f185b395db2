import {
  pluginCreateSchema,
  pluginListQuerySchema,
  pluginNoticePageSchema,
  pluginNoticeQuerySchema,
  pluginPageSchema,
  pluginSchema,
  pluginUpdateSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import {
  createPlugin,
  deletePlugin,
  dismissPluginNotice,
  getPlugin,
  listPluginNotices,
  listPlugins,
  updatePlugin,
} from "./registry-service.ts";

const pluginParam = idParam("id", "A registered plugin's number, or builtin-<name>");

const writeErrors = {
  400: commonErrors[400],
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the plugin's registrant or a super admin, or a built-in (FORBIDDEN)"),
  404: errorResponse("No such plugin (NOT_FOUND)"),
};

const listRoute = createRoute({
  method: "get",
  path: "/plugins",
  tags: ["plugins"],
  summary: "The plugin registry (built-ins first), filtered by type and part of the name, paged",
  request: { query: pluginListQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(pluginPageSchema), "Plugins"),
    400: commonErrors[400],
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/plugins/{id}",
  tags: ["plugins"],
  summary: "One plugin",
  request: { params: pluginParam },
  responses: {
    200: jsonResponse(successEnvelopeSchema(pluginSchema), "Plugin"),
    404: errorResponse("No such plugin (NOT_FOUND)"),
  },
});

const createPluginRoute = createRoute({
  method: "post",
  path: "/plugins",
  tags: ["plugins"],
  summary: "Register a plugin; the signed-in user becomes its registrant",
  request: { body: { content: { "application/json": { schema: pluginCreateSchema } }, required: true } },
  responses: {
    201: jsonResponse(successEnvelopeSchema(pluginSchema), "Registered"),
    400: errorResponse(
      "Invalid input, a name that is not @scope/name or is a built-in's, or an entry point on a host this server does not allow (VALIDATION_ERROR)",
    ),
    401: writeErrors[401],
    403: errorResponse("The account registered as many plugins as one may (FORBIDDEN)"),
    409: errorResponse("The name or repository is taken (CONFLICT)"),
  },
});

const updatePluginRoute = createRoute({
  method: "patch",
  path: "/plugins/{id}",
  tags: ["plugins"],
  summary: "Change a plugin's entry point or schema definition (registrant, super admins)",
  request: {
    params: pluginParam,
    body: { content: { "application/json": { schema: pluginUpdateSchema } }, required: true },
  },
  responses: { 200: jsonResponse(successEnvelopeSchema(pluginSchema), "Updated"), ...writeErrors },
});

const deletePluginRoute = createRoute({
  method: "delete",
  path: "/plugins/{id}",
  tags: ["plugins"],
  summary: "Remove a plugin from the registry (registrant, super admins)",
  request: { params: pluginParam },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(z.object({ id: z.string(), deleted: z.literal(true) })),
      "Deleted",
    ),
    ...writeErrors,
  },
});

const noticesRoute = createRoute({
  method: "get",
  path: "/plugins/notices",
  tags: ["plugins"],
  summary: "What the server changed in the signed-in user's plugins or feeds (renames), newest first, paged",
  request: { query: pluginNoticeQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(pluginNoticePageSchema), "Notices not yet dismissed"),
    400: commonErrors[400],
    401: writeErrors[401],
  },
});

const dismissNoticeRoute = createRoute({
  method: "post",
  path: "/plugins/notices/{id}/dismiss",
  tags: ["plugins"],
  summary: "Dismiss one of the signed-in user's notices",
  request: { params: idParam("id", "A notice's number") },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(z.object({ id: z.string(), dismissed: z.literal(true) })),
      "Dismissed",
    ),
    401: writeErrors[401],
    403: errorResponse("Not a same-origin request (FORBIDDEN)"),
    404: errorResponse("No such notice of yours, or already dismissed (NOT_FOUND)"),
  },
});

export function pluginRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  // Before /plugins/{id}, which would otherwise take "notices" for a plugin's id.
  router.openapi(noticesRoute, async (c) =>
    ok(c, await listPluginNotices(db, requireUser(c), c.req.valid("query"))),
  );
  router.openapi(dismissNoticeRoute, async (c) => {
    const { id } = c.req.valid("param");
    await dismissPluginNotice(db, requireUser(c), id);
    return ok(c, { id, dismissed: true as const }, "Notice dismissed.");
  });
  router.openapi(listRoute, async (c) =>
    ok(c, await listPlugins(db, env, c.get("user"), c.req.valid("query"))),
  );
  router.openapi(getRoute, async (c) =>
    ok(c, await getPlugin(db, env, c.get("user"), c.req.valid("param").id)),
  );
  router.openapi(createPluginRoute, async (c) =>
    created(
      c,
      await createPlugin(db, env, requireUser(c), c.req.valid("json"), {
        pluginsPerAccount: env.PLUGINS_PER_ACCOUNT,
      }),
      "Plugin registered.",
    ),
  );
  router.openapi(updatePluginRoute, async (c) =>
    ok(
      c,
      await updatePlugin(db, env, requireUser(c), c.req.valid("param").id, c.req.valid("json")),
      "Plugin updated.",
    ),
  );
  router.openapi(deletePluginRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deletePlugin(db, env, requireUser(c), id);
    return ok(c, { id, deleted: true as const }, "Plugin deleted.");
  });
  return router;
}
