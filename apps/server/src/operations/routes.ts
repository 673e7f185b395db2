import { operationsOverviewSchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { operationsOverview } from "./service.ts";

const overviewRoute = createRoute({
  method: "get",
  path: "/operations",
  tags: ["operations"],
  summary:
    "How the instance runs (super admins): workers, queues, failure rates, intake sources, budgets, paused channels, recent errors, the moderation log's self-check and open alerts",
  responses: {
    200: jsonResponse(successEnvelopeSchema(operationsOverviewSchema), "The overview"),
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not a super admin (FORBIDDEN)"),
    503: commonErrors[503],
  },
});

export function operationsRoutes({ database: { db }, env, logSelfCheck }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  const xBudget = createXBudget(db, { limit: env.X_API_CALLS_PER_HOUR });
  router.openapi(overviewRoute, async (c) =>
    ok(c, await operationsOverview({ db, env, xBudget, logSelfCheck }, requireUser(c))),
  );
  return router;
}
