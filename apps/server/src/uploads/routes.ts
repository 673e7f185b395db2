import { join } from "node:path";
import { pinnedUploadRequestSchema, successEnvelopeSchema, uploadAnswerSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { createPinataUploadKey } from "../clients/pinata.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import { rateLimited } from "../limits/middleware.ts";
import { consumeLimit } from "../limits/service.ts";
import { acceptPinnedUpload, MAX_UPLOAD_BYTES, storeUpload } from "./service.ts";

const uploadRoute = createRoute({
  method: "post",
  path: "/upload",
  tags: ["uploads"],
  summary:
    "Upload an image (multipart field `file`; PNG, JPEG, GIF or WebP up to 5 MB, checked by its bytes)",
  request: {
    body: {
      content: { "multipart/form-data": { schema: z.object({ file: z.any().describe("The image file") }) } },
    },
  },
  responses: {
    201: jsonResponse(
      successEnvelopeSchema(uploadAnswerSchema),
      "Stored; `url` is its path under /uploads, which a feed or profile stores (resolved against the page's own address)",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    429: errorResponse(
      "The account uploaded as much as it may in a day (UPLOAD_BYTES_PER_DAY; RATE_LIMITED)",
    ),
  },
});

const authKeyRoute = createRoute({
  method: "get",
  path: "/upload/get-auth-key",
  tags: ["uploads"],
  // A read that mints an upload key: a token needs what uploading needs.
  scope: "submit",
  summary:
    "A single-use Pinata key for a direct browser upload (only when the server has PINATA_JWT); guarded like a mutation: a session, a same-origin browser request, and a per-account hourly limit",
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.object({ JWT: z.string() })), "The key"),
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not from this app's own pages (FORBIDDEN)"),
    404: errorResponse("Pinata uploads are not configured (NOT_FOUND)"),
    429: errorResponse("Too many keys this hour (RATE_LIMITED)"),
    503: commonErrors[503],
  },
});

const pinnedRoute = createRoute({
  method: "post",
  path: "/upload/pinned",
  tags: ["uploads"],
  summary:
    "Accept an image the browser pinned on Pinata with a key from get-auth-key: the server reads it back through the gateway and checks its bytes (PNG, JPEG, GIF or WebP, at most 5 MB) before answering its address; a refused file is unpinned",
  request: {
    body: { content: { "application/json": { schema: pinnedUploadRequestSchema } }, required: true },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(uploadAnswerSchema), "An image: `url` is its gateway address"),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    404: errorResponse("Pinata uploads are not configured (NOT_FOUND)"),
    503: commonErrors[503],
  },
});

export function uploadRoutes({ database: { db }, env, logger }: AppDeps) {
  const router = createRouter({ writes: "submit" }, env);
  router.use(
    "/upload",
    bodyLimit({
      maxSize: MAX_UPLOAD_BYTES + 64 * 1024,
      onError: () => {
        throw AppError.validation("The file is too large (at most 5 MB).");
      },
    }),
  );
  router.openapi(uploadRoute, async (c) => {
    const user = requireUser(c);
    const form = await c.req.parseBody().catch(() => {
      throw AppError.validation("Send the image as multipart/form-data in the field `file`.");
    });
    const file = form.file;
    if (!(file instanceof File))
      throw AppError.validation("No file selected: send the image in the field `file`.");
    const stored = await storeUpload(
      db,
      {
        uploadsDir: join(env.DATA_DIR, "uploads"),
        bytesPerDay: env.UPLOAD_BYTES_PER_DAY,
      },
      new Uint8Array(await file.arrayBuffer()),
      user.nearAccountId,
    );
    return created(c, stored, "Image uploaded.");
  });
  router.openapi(pinnedRoute, async (c) => {
    requireUser(c);
    if (!env.PINATA_JWT) throw AppError.notFound("Pinata uploads are not configured on this server.");
    const pinata = { apiUrl: env.PINATA_API_URL, gatewayUrl: env.PINATA_GATEWAY_URL, jwt: env.PINATA_JWT };
    return ok(c, await acceptPinnedUpload(pinata, c.req.valid("json").cid, logger));
  });
  router.openapi(authKeyRoute, async (c) => {
    const user = requireUser(c);
    if (!env.PINATA_JWT) throw AppError.notFound("Pinata uploads are not configured on this server.");
    // Each key is a paid resource on the operator's account: few per account and hour.
    const budget = await consumeLimit(db, `pinata-keys:${user.id}`, env.PINATA_KEYS_PER_HOUR, 60 * 60_000);
    if (!budget.allowed)
      throw rateLimited("Too many upload keys this hour; try again later.", budget.retryAfterMs, c);
    return ok(c, await createPinataUploadKey(env.PINATA_API_URL, env.PINATA_JWT));
  });
  return router;
}
