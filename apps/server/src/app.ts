import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { leaderboardQuerySchema, submissionListQuerySchema } from "@curate/core";
import type { MessageQueue } from "@fedify/fedify";
import { OpenAPIHono } from "@hono/zod-openapi";
import { compress } from "hono/compress";
import { secureHeaders } from "hono/secure-headers";
import { activityRoutes } from "./activity/routes.ts";
import { apiTokenRoutes } from "./api-tokens/routes.ts";
import { isMutation, mutationGuard, sessionLoader } from "./auth/middleware.ts";
import { authRoutes } from "./auth/routes.ts";
import { API_TOKEN_SCHEME, SESSION_SCHEME } from "./auth/scopes.ts";
import { SESSION_COOKIE } from "./auth/sessions.ts";
import type { AppBindings, AppDeps } from "./context.ts";
import { EMAIL_EVENTS_PATH, EMAIL_ONE_CLICK_PATH, emailRoutes } from "./email/routes.ts";
import { AppError, toAppError } from "./errors.ts";
import { createFediverse } from "./fediverse/federation.ts";
import { fediverseMiddleware } from "./fediverse/http.ts";
import { fediverseRoutes } from "./fediverse/routes.ts";
import { reservedFeedWrites } from "./feeds/reserved.ts";
import { feedRoutes } from "./feeds/routes.ts";
import { feedSecretRoutes } from "./feeds/secret-routes.ts";
import { governanceRoutes } from "./governance/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { CHANGE_VERSION_HEADER } from "./http/changes.ts";
import { API_DOCS_HTML } from "./http/docs.ts";
import { errorBody } from "./http/envelope.ts";
import { createReadCache } from "./http/read-cache.ts";
import { requestGuard } from "./http/request-guard.ts";
import { telegramWebhookRoutes, testPostRoutes } from "./intake/routes.ts";
import type { Intake } from "./intake/runtime.ts";
import { TELEGRAM_WEBHOOK_PATH } from "./intake/telegram.ts";
import { leaderboardRoutes } from "./leaderboard/routes.ts";
import { writeLimit } from "./limits/middleware.ts";
import { moderationRoutes } from "./moderation/routes.ts";
import { logKeyRoutes, moderationLogRoutes } from "./moderation-log/routes.ts";
import { operationsRoutes } from "./operations/routes.ts";
import { pluginRoutes } from "./plugins/routes.ts";
import { dryRunPort } from "./processing/dry-run.ts";
import { dryRunRoutes } from "./processing/dry-run-routes.ts";
import { processingRoutes } from "./processing/routes.ts";
import { runnerDeps } from "./processing/runner-deps.ts";
import type { RunnerDeps } from "./processing/shared.ts";
import { publicationRoutes } from "./publications/routes.ts";
import { queueRoutes } from "./queues/routes.ts";
import { reputationRoutes } from "./reputation/routes.ts";
import { recentItemRoutes, rssRoutes } from "./rss/routes.ts";
import { submissionRoutes } from "./submissions/routes.ts";
import { requestTelemetry } from "./telemetry/http.ts";
import { mountMetrics } from "./telemetry/routes.ts";
import { uploadRoutes } from "./uploads/routes.ts";
import { userRoutes } from "./users/routes.ts";
import { createPageCache, spaHandler, uploadsHandler } from "./web/static.ts";

const DEFAULT_WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), "../../web/dist");

/**
 * The app is built from its dependencies plus the intake, which the development-only test-post route drives; its
 * dry runs use `runner` (a test's, with its extra plugins) or one made from the environment.
 */
export interface AppOptions extends Omit<AppDeps, "dryRuns"> {
  intake: Intake;
  runner?: RunnerDeps;
  /**
   * Where the fediverse inbox hands verified activities for the workers (`enqueueOnlyInbox`, fediverse/queue.ts);
   * whoever composes the app closes it.
   */
  fediverseInbox: MessageQueue;
}

/**
 * Mutations other services make, with no session and no browser: each route checks the caller's own credential
 * (Telegram's secret header, the one-click link's token, the mail provider's Basic auth) instead of the guard.
 */
export const CALLBACK_PATHS = [TELEGRAM_WEBHOOK_PATH, EMAIL_ONE_CLICK_PATH, EMAIL_EVENTS_PATH];

export function createApp(options: AppOptions) {
  // Dry runs run the pipeline within the request, with the same plugins and limits as the worker's.
  const deps: AppDeps & AppOptions = {
    ...options,
    dryRuns: dryRunPort(
      options.runner ??
        runnerDeps({
          database: options.database,
          env: options.env,
          logger: options.logger,
          telemetry: options.telemetry,
        }),
    ),
  };
  const { logger } = deps;
  const app = new OpenAPIHono<AppBindings>();

  app.use(requestTelemetry(deps.telemetry));
  app.use(async (c, next) => {
    const started = performance.now();
    const requestId = acceptedRequestId(c.req.header("x-request-id")) ?? randomUUID();
    c.set("requestId", requestId);
    await next();
    // Set on the response's own headers: c.header() on a finished response rebuilds it around its body as a stream,
    // which makes every large answer (feed files) several times slower to write.
    c.res.headers.set("X-Request-Id", requestId);
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
  // Feed files are for every origin's readers and pages; runs after the security headers to loosen that one.
  app.use("/rss/*", async (c, next) => {
    await next();
    c.res.headers.set("Cross-Origin-Resource-Policy", "cross-origin");
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
  // RFC 8058's one-click POST comes form-encoded from mail programs; its body is not read.
  api.use(requestGuard({ rawBodyPaths: ["/api/upload", EMAIL_ONE_CLICK_PATH] }));
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
      { pattern: /^\/api\/feeds\/[^/]+\/recent-items$/, params: [] },
      { pattern: /^\/api\/leaderboard$/, params: Object.keys(leaderboardQuerySchema.shape) },
    ],
  });
  // Server-rendered pages show the same public data: kept as briefly, cleared together.
  const pageCache = createPageCache(deps.env.READ_CACHE_TTL_MS, deps.env.READ_CACHE_MAX_BYTES);
  deps.changes.subscribe(readCache.invalidate);
  deps.changes.subscribe(pageCache.clear);
  // Every answer says which changes it has read (decision 0038): all up to the version seen when it started. A
  // write answers with its own change's version, once this process has dropped what it kept and told the others.
  api.use(async (c, next) => {
    let version = deps.changes.version();
    await next();
    if (isMutation(c.req.method) && c.res.status < 400) version = await deps.changes.notify();
    c.res.headers.set(CHANGE_VERSION_HEADER, String(version));
  });
  // Before the session lookup: a cached public answer is the same for everyone, so it needs no user.
  api.use(readCache.middleware);
  api.use(reservedFeedWrites);
  api.use(sessionLoader(deps.database.db, deps.env, logger));
  const telegramWebhook = deps.intake.telegram?.webhook;
  api.use(
    mutationGuard(
      deps.env,
      new Set(CALLBACK_PATHS.filter((path) => path !== TELEGRAM_WEBHOOK_PATH || telegramWebhook)),
    ),
  );
  api.use(writeLimit(deps.database.db, deps.env));
  for (const routes of [
    healthRoutes,
    authRoutes,
    userRoutes,
    apiTokenRoutes,
    feedRoutes,
    recentItemRoutes,
    feedSecretRoutes,
    submissionRoutes,
    moderationRoutes,
    moderationLogRoutes,
    processingRoutes,
    dryRunRoutes,
    publicationRoutes,
    uploadRoutes,
    leaderboardRoutes,
    reputationRoutes,
    governanceRoutes,
    queueRoutes,
    activityRoutes,
    pluginRoutes,
    operationsRoutes,
    emailRoutes,
    fediverseRoutes,
  ]) {
    api.route("/", routes(deps));
  }
  if (deps.env.ENABLE_TEST_ROUTES) api.route("/", testPostRoutes(deps, deps.intake));
  if (telegramWebhook) api.route("/", telegramWebhookRoutes(deps.intake, deps.env));
  api.openAPIRegistry.registerComponent("securitySchemes", API_TOKEN_SCHEME, {
    type: "http",
    scheme: "bearer",
    description:
      "A personal API token (`curate_pat_…`) made in Settings → API tokens, sent as `Authorization: Bearer <token>`. " +
      "Each operation lists the scope it needs (read, submit, moderate or manage); a request with a token never " +
      "reads cookies, so it needs no Origin header. Tokens cannot make or revoke tokens.",
  });
  api.openAPIRegistry.registerComponent("securitySchemes", SESSION_SCHEME, {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "The web app's session, set by POST /api/auth/verify-login. Changes also need a same-origin Origin header.",
  });
  api.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Curate API",
      version: deps.version,
      description:
        "Community-curated content feeds. Every response uses the Curate envelope. Besides what each operation " +
        "lists, any may answer 500 (INTERNAL_ERROR) and 503 (UNAVAILABLE), one that takes parameters or a body 400 " +
        "(VALIDATION_ERROR), one that takes a body 415, and before it runs the server may refuse a request with 401 " +
        "(a bad token), 403 (a token without the scope, or a change from another origin), 413, 429 or 431.",
    },
  });
  api.get("/docs", (c) => c.html(API_DOCS_HTML));
  api.all("*", (c) => {
    throw AppError.notFound(`No API route for ${c.req.method} ${c.req.path}.`);
  });
  app.route("/api", api);

  mountMetrics(app, deps);
  app.get("/uploads/*", uploadsHandler(join(deps.env.DATA_DIR, "uploads")));
  app.route("/rss", rssRoutes(deps));
  app.route("/", logKeyRoutes(deps));
  const fediverse = createFediverse({
    db: deps.database.db,
    env: deps.env,
    logger,
    inbox: deps.fediverseInbox,
  });
  for (const path of ["/.well-known/webfinger", "/.well-known/nodeinfo", "/ap/*"]) {
    app.use(path, fediverseMiddleware(fediverse));
  }
  const webDist = deps.env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
  app.get(
    "*",
    spaHandler(
      webDist,
      {
        // PUBLIC_URL serves this deployment's RSS and uploads, also when the app is opened under another host name.
        connect: [new URL(deps.env.CROSSPOST_API_URL).origin, new URL(deps.env.PUBLIC_URL).origin],
        images: [new URL(deps.env.PUBLIC_URL).origin],
      },
      {
        entry: deps.env.WEB_SSR_ENTRY ?? join(webDist, "..", "dist-server", "entry-server.js"),
        // The page's data comes from this app's own API, asked without the visitor's cookie: a rendered page
        // is the same for everyone and never shows anyone's own data.
        fetch: async (input, init) => {
          const url = new URL(input, deps.env.PUBLIC_URL);
          if (url.origin !== new URL(deps.env.PUBLIC_URL).origin) {
            throw new Error("A server-rendered page reads only this site's own addresses.");
          }
          return app.request(`${url.pathname}${url.search}`, { ...init, headers: anonymous(init.headers) });
        },
        publicUrl: deps.env.PUBLIC_URL,
        timeoutMs: deps.env.SSR_TIMEOUT_MS,
        logger,
        cache: pageCache,
      },
    ),
  );

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

/** Request headers without anything that could identify a visitor. */
function anonymous(headers: RequestInit["headers"]): Headers {
  const clean = new Headers(headers);
  clean.delete("cookie");
  clean.delete("authorization");
  return clean;
}

/**
 * A caller's own request id, echoed and logged, when it is short and plain (a proxy's UUID or trace id); anything
 * else is replaced by ours, so a header cannot grow every answer and log line or smuggle control characters.
 */
function acceptedRequestId(header: string | undefined): string | undefined {
  return header && /^[A-Za-z0-9._:@/+=-]{1,128}$/.test(header) ? header : undefined;
}
