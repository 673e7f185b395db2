import { Hono } from "hono";
import type { AppBindings, AppDeps } from "../context.ts";
import { AppError, toAppError } from "../errors.ts";
import { errorBody } from "../http/envelope.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { bearerMatches, createScraper } from "./scrape.ts";

/**
 * `GET /metrics` in Prometheus' text format for a scraper holding METRICS_TOKEN (decision 0028); without the token
 * set the route does not exist (404), and any other caller gets 401 with the envelope.
 */
export function mountMetrics(
  app: Hono<AppBindings>,
  { database, env, telemetry }: Pick<AppDeps, "database" | "env" | "telemetry">,
) {
  const token = env.METRICS_TOKEN;
  if (!token) {
    app.get("/metrics", (c) => {
      throw AppError.notFound(`Nothing at ${c.req.method} ${c.req.path}.`);
    });
    return;
  }
  const scraper = createScraper({
    database,
    metrics: telemetry.metrics,
    xBudget: createXBudget(database.db, { limit: env.X_API_CALLS_PER_HOUR }),
    heartbeatSeconds: env.PROCESSING_HEARTBEAT_SECONDS,
  });
  app.get("/metrics", async (c) => {
    if (!bearerMatches(c.req.header("authorization"), token)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      throw new AppError("UNAUTHENTICATED", "A valid metrics token is required (Authorization: Bearer …).");
    }
    const body = await scraper.scrape();
    c.header("Cache-Control", "no-store");
    return c.body(body, 200, { "Content-Type": scraper.contentType });
  });
}

/** A worker process's own HTTP server: `/metrics` alone, answering in the envelope like the app. */
export function metricsApp(deps: Pick<AppDeps, "database" | "env" | "telemetry">) {
  const app = new Hono<AppBindings>();
  mountMetrics(app, deps);
  app.notFound((c) => c.json(errorBody(AppError.notFound(`Nothing at ${c.req.method} ${c.req.path}.`)), 404));
  app.onError((err, c) => {
    const error = toAppError(err);
    return c.json(errorBody(error), error.status);
  });
  return app;
}
