import { successEnvelopeSchema, trustPageSchema, trustQuerySchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { listTrust } from "./trust.ts";

const trustRoute = createRoute({
  method: "get",
  path: "/trust",
  tags: ["governance"],
  summary:
    "Earned trust in feeds that have it on: a feed's curators (trusted first) or one curator's feeds (an account or a handle), each with why (\"12 of 13 approved in the last 30 days\") and when it last changed",
  request: { query: trustQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(trustPageSchema), "A page of curators' standings"),
    400: commonErrors[400],
  },
});

export function governanceRoutes({ database: { db } }: AppDeps) {
  const router = createRouter({ writes: "session" });
  router.openapi(trustRoute, async (c) => ok(c, await listTrust(db, c.req.valid("query"))));
  return router;
}
