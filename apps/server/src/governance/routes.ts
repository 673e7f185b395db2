import {
  approverOfferListSchema,
  approverOfferParamsSchema,
  approverOfferSchema,
  successEnvelopeSchema,
  trustPageSchema,
  trustQuerySchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { answerApproverOffer, listApproverOffers } from "./offers.ts";
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

const ownerErrors = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the feed's owner or admin (FORBIDDEN)"),
  404: errorResponse("No such feed or offer (NOT_FOUND)"),
};

const listOffersRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/approver-offers",
  tags: ["governance"],
  summary:
    "Approver rights offered to trusted curators over the trust policy's higher bar, waiting ones first (owner, admins, super admins)",
  request: { params: idParam("feedId", "Feed id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(approverOfferListSchema), "The feed's offers"),
    ...ownerErrors,
  },
});

const answerRoute = (answer: "confirm" | "decline") =>
  createRoute({
    method: "post",
    path: `/feeds/{feedId}/approver-offers/{personKey}/${answer}`,
    tags: ["governance"],
    summary:
      answer === "confirm"
        ? "Confirm an offer: the curator joins the feed's approvers (a save of the config, logged)"
        : "Decline an offer: nothing changes, and the offer is not made again by itself",
    request: { params: approverOfferParamsSchema },
    responses: {
      200: jsonResponse(successEnvelopeSchema(approverOfferSchema), "The answered offer"),
      400: commonErrors[400],
      ...ownerErrors,
      409: errorResponse("The offer was already answered (CONFLICT)"),
    },
  });

export function governanceRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  router.openapi(trustRoute, async (c) => ok(c, await listTrust(db, c.req.valid("query"))));
  router.openapi(listOffersRoute, async (c) =>
    ok(c, await listApproverOffers(db, env, requireUser(c), c.req.valid("param").feedId)),
  );
  for (const answer of ["confirm", "decline"] as const) {
    router.openapi(answerRoute(answer), async (c) => {
      const { feedId, personKey } = c.req.valid("param");
      return ok(c, await answerApproverOffer(db, env, requireUser(c), feedId, personKey, answer));
    });
  }
  return router;
}
