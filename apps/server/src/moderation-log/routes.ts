import {
  LOG_KEYS_PATH,
  logEntryParamsSchema,
  logPageSchema,
  logQuerySchema,
  logRedactAnswerSchema,
  logRedactRequestSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { logSigner, publishedKeys } from "./keys.ts";
import { downloadLog, readLog, redactEntry } from "./service.ts";

const feedParam = idParam("feedId", "Feed id");

const logRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/log",
  tags: ["moderation log"],
  summary: "A page of the feed's public moderation log (hash-chained, heads signed), newest or oldest first",
  request: { params: feedParam, query: logQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(logPageSchema), "Entries, the head, the latest signed head"),
    400: commonErrors[400],
    404: errorResponse("Unknown feed (NOT_FOUND)"),
  },
});

const downloadRoute = createRoute({
  method: "get",
  path: "/feeds/{feedId}/log/download",
  tags: ["moderation log"],
  summary: "The feed's whole moderation log as JSON Lines, for verify-log",
  request: { params: feedParam },
  responses: {
    200: {
      description:
        "A header line, the published keys, one line per signed head, one per entry (oldest first), an end line",
      content: { "application/x-ndjson": { schema: z.string() } },
    },
    404: errorResponse("Unknown feed (NOT_FOUND)"),
  },
});

const redactRoute = createRoute({
  method: "post",
  path: "/feeds/{feedId}/log/{seq}/redact",
  tags: ["moderation log"],
  summary:
    "Withhold parts of a log entry for good; its digests stay, so the chain still verifies (feed managers)",
  request: {
    params: logEntryParamsSchema,
    body: { content: { "application/json": { schema: logRedactRequestSchema } } },
  },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(logRedactAnswerSchema),
      "The entry as it reads now, and the redaction",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not the feed's owner or an admin (FORBIDDEN)"),
    404: errorResponse("Unknown feed or entry (NOT_FOUND)"),
    409: errorResponse("The genesis, a redaction, or nothing left to redact (CONFLICT)"),
  },
});

export function moderationLogRoutes({ database: { db }, env }: AppDeps) {
  // Redacting an entry is for the feed's managers.
  const router = createRouter({ writes: "manage" }, env);
  const signer = logSigner(env.LOG_SIGNING_SEED);
  router.openapi(logRoute, async (c) =>
    ok(c, await readLog(db, env, c.get("user"), c.req.valid("param").feedId, c.req.valid("query"))),
  );
  // Documented like the others, answered by hand: the typed handlers answer JSON only, and this streams lines.
  router.documented(downloadRoute, async (c) => {
    const param = feedParam.safeParse(c.req.param());
    if (!param.success) throw AppError.fromZod(param.error, "path parameters");
    const { feedId, lines } = await downloadLog(db, env, c.get("user"), param.data.feedId, {
      url: `${env.PUBLIC_URL}${LOG_KEYS_PATH}`,
      document: () => publishedKeys(db, signer),
    });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${next.value}\n`));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return c.body(body, 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${feedId}-moderation-log.jsonl"`,
      "Cache-Control": "no-store",
    });
  });
  router.openapi(redactRoute, async (c) => {
    const { feedId, seq } = c.req.valid("param");
    return ok(c, await redactEntry(db, env, requireUser(c), feedId, seq, c.req.valid("json")));
  });
  return router;
}

/**
 * /.well-known/curate/log-key.json: every public key that signed heads here and the current one, for anyone
 * checking a log (readable from any origin, like the feeds' files).
 */
export function logKeyRoutes({ database: { db }, env }: AppDeps) {
  const router = new Hono();
  const signer = logSigner(env.LOG_SIGNING_SEED);
  router.get(LOG_KEYS_PATH, async (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(await publishedKeys(db, signer));
  });
  return router;
}
