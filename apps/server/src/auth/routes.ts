import {
  currentUserSchema,
  initiateLoginRequestSchema,
  loginChallengeSchema,
  successEnvelopeSchema,
  verifyLoginRequestSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { signInLimit } from "../limits/middleware.ts";
import { initiateLogin, verifyLogin } from "./service.ts";
import { revokeSession, SESSION_COOKIE, SESSION_TTL_MS } from "./sessions.ts";
import { publicUser } from "./user.ts";

const rateLimited = errorResponse("Too many attempts from this address (RATE_LIMITED)");

const initiateRoute = createRoute({
  method: "post",
  path: "/auth/initiate-login",
  tags: ["auth"],
  summary: "Start sign-in: a single-use nonce (base64, 32 bytes) and the recipient to sign for",
  request: {
    body: { content: { "application/json": { schema: initiateLoginRequestSchema } } },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(loginChallengeSchema), "Sign this"),
    400: commonErrors[400],
    429: rateLimited,
  },
});

const verifyRoute = createRoute({
  method: "post",
  path: "/auth/verify-login",
  tags: ["auth"],
  summary: "Finish sign-in with the wallet's signed-message token; sets the session cookie",
  request: {
    body: {
      content: {
        "application/json": { schema: verifyLoginRequestSchema },
      },
    },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(currentUserSchema), "Signed in"),
    400: commonErrors[400],
    401: errorResponse("Bad signature, nonce, recipient or key (UNAUTHENTICATED)"),
    429: rateLimited,
  },
});

const logoutRoute = createRoute({
  method: "post",
  path: "/auth/logout",
  tags: ["auth"],
  summary: "Revoke the current session and clear its cookie",
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.object({ loggedOut: z.literal(true) })), "Signed out"),
  },
});

export function authRoutes({ database: { db }, env }: AppDeps) {
  // Tokens never sign in or out: they are made by a session, and revoked in Settings.
  const router = createRouter({ writes: "session" }, env);
  // Signing out is never limited: a client that was throttled must always be able to leave.
  router.use("/auth/initiate-login", signInLimit(db, env));
  router.use("/auth/verify-login", signInLimit(db, env));
  router.openapi(initiateRoute, async (c) =>
    ok(c, await initiateLogin(db, env, c.req.valid("json").accountId)),
  );
  router.openapi(verifyRoute, async (c) => {
    const { token, accountId } = c.req.valid("json");
    const { user, session } = await verifyLogin(db, env, {
      token,
      accountId,
      userAgent: c.req.header("user-agent"),
    });
    setCookie(c, SESSION_COOKIE, session.cookie, {
      httpOnly: true,
      sameSite: "Lax",
      secure: env.NODE_ENV === "production",
      path: "/",
      maxAge: SESSION_TTL_MS / 1000,
      expires: session.expiresAt,
    });
    return ok(c, publicUser(user, env), "Signed in.");
  });
  router.openapi(logoutRoute, async (c) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie) await revokeSession(db, env.SESSION_SECRET, cookie);
    deleteCookie(c, SESSION_COOKIE, { path: "/", secure: env.NODE_ENV === "production" });
    return ok(c, { loggedOut: true as const }, "Signed out.");
  });
  return router;
}
