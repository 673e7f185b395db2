import {
  approverReputationPageSchema,
  approverReputationQuerySchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { listApprovers } from "./service.ts";

const approversRoute = createRoute({
  method: "get",
  path: "/reputation/approvers",
  tags: ["reputation"],
  summary:
    "Approvers by the decisions that count (never on their own posts), with decisions later overturned and the median time to decide (recomputed on a schedule, as of medianAsOf); per feed or overall",
  request: { query: approverReputationQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(approverReputationPageSchema), "A page of approvers"),
    400: commonErrors[400],
    404: errorResponse("No such feed (NOT_FOUND)"),
  },
});

export function reputationRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "session" }, env);
  router.openapi(approversRoute, async (c) => ok(c, await listApprovers(db, c.req.valid("query"))));
  return router;
}
