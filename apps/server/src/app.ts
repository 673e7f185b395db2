import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { leaderboardQuerySchema, submissionListQuerySchema } from "@curate/core";
import { OpenAPIHono } from "@hono/zod-openapi";
import { compress } from "hono/compress";
import { secureHeaders } from "hono/secure-headers";
import { activityRoutes } from "./activity/routes.ts";
import { isMutation, mutationGuard, sessionLoader } from "./auth/middleware.ts";
import { authRoutes } from "./auth/routes.ts";
import type { AppBindings, AppDeps } from "./context.ts";
import { AppError, toAppError } from "./errors.ts";
import { feedRoutes } from "./feeds/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { API_DOCS_HTML } from "./http/docs.ts";
import { errorBody } from "./http/envelope.ts";
import { createReadCache } from "./http/read-cache.ts";
import { requestGuard } from "./http/request-guard.ts";
import { testTweetRoutes } from "./intake/routes.ts";
import type { Intake } from "./intake/runtime.ts";
import { leaderboardRoutes } from "./leaderboard/routes.ts";
import { writeLimit } from "./limits/middleware.ts";
import { moderationRoutes } from "./moderation/routes.ts";
import { processingRoutes } from "./processing/routes.ts";
import { rssRoutes } from "./rss/routes.ts";
import { submissionRoutes } from "./submissions/routes.ts";
import { uploadRoutes } from "./uploads/routes.ts";
import { userRoutes } from "./users/routes.ts";
import { spaHandler, uploadsHandler } from "./web/static.ts";

const DEFAULT_WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), "../../web/dist");

/** The app is built from its dependencies plus the intake, which the development-only test-post route drives. */
export interface AppOptions extends AppDeps {
  intake: Intake;
}

export function createApp(deps: AppOptions) {
  const { logger } = deps;
  const app = new OpenAPIHono<AppBindings>();

  app.use(async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header("x-request-id") ?? randomUUID();
    c.set("requestId", requestId);
    await next();
    c.header("X-Request-Id", requestId);
    logger.info(
      {
        reqId: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  });
  // Wallet sign-in opens popups that report back to this window, which a strict opener policy would cut off.
  app.use(
    secureHeaders({
      crossOriginResourcePolicy: "same-site",
      crossOriginOpenerPolicy: "same-origin-allow-popups",
    }),
  );
  app.use(compress());

  const api = new OpenAPIHono<AppBindings>();
  api.use(requestGuard({ rawBodyPaths: ["/api/upload"] }));
  const readCache = createReadCache({
    ttlMs: deps.env.READ_CACHE_TTL_MS,
    maxBytes: deps.env.READ_CACHE_MAX_BYTES,
    routes: [
      {
        pattern: /^\/api\/submissions(\/feed\/[^/]+)?$/,
        params: Object.keys(submissionListQuerySchema.shape),
      },
      { pattern: /^\/api\/submissions\/single\/[^/]+$/, params: [] },
      { pattern: /^\/api\/feeds(\/[^/]+)?$/, params: [] },
      { pattern: /^\/api\/leaderboard$/, params: Object.keys(leaderboardQuerySchema.shape) },
    ],
  });
  deps.changes.subscribe(readCache.invalidate);
  api.use(async (c, next) => {
    await next();
    if (isMutation(c.req.method) && c.res.status < 400) readCache.invalidate();
  });
  // Before the session lookup: a cached public answer is the same for everyone, so it needs no user.
  api.use(readCache.middleware);
  api.use(sessionLoader(deps.database.db, deps.env));
  api.use(mutationGuard(deps.env));
  api.use(writeLimit(deps.database.db, deps.env));
  for (const routes of [
    healthRoutes,
    authRoutes,
    userRoutes,
    feedRoutes,
    submissionRoutes,
    moderationRoutes,
    processingRoutes,
    uploadRoutes,
    leaderboardRoutes,
    activityRoutes,
  ]) {
    api.route("/", routes(deps));
  }
  if (deps.env.ENABLE_TEST_ROUTES) api.route("/", testTweetRoutes(deps, deps.intake));
  api.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Curate API",
      version: deps.version,
      description: "Community-curated content feeds. Every response uses the Curate envelope.",
    },
  });
  api.get("/docs", (c) => c.html(API_DOCS_HTML));
  api.all("*", (c) => {
    throw AppError.notFound(`No API route for ${c.req.method} ${c.req.path}.`);
  });
  app.route("/api", api);

  app.get("/uploads/*", uploadsHandler(join(deps.env.DATA_DIR, "uploads")));
  app.route("/rss", rssRoutes(deps));
  app.get("*", spaHandler(deps.env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST));

  app.onError((err, c) => {
    const error = toAppError(err);
    if (error.status >= 500) {
      logger.error({ err, reqId: c.get("requestId"), path: c.req.path }, "request failed");
    }
    return c.json(errorBody(error), error.status);
  });
  app.notFound((c) => c.json(errorBody(AppError.notFound(`Nothing at ${c.req.method} ${c.req.path}.`)), 404));

  return app;
}

export type App = ReturnType<typeof createApp>;
