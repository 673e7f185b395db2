import { type AppConfig, appConfigSchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { listeningNetworks } from "../config/networks.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { commonErrors, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { logHealth } from "../moderation-log/service.ts";
import { rssReadSettings } from "../rss/recent-items.ts";

const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.object({ driver: z.enum(["pglite", "postgres"]), reachable: z.literal(true) }),
  version: z.string(),
  /** The moderation logs' self-check: when it last ran, and the feeds whose stored log it found broken. */
  moderationLog: z.object({
    status: z.enum(["ok", "broken", "unchecked"]),
    checkedAt: z.string().nullable(),
    broken: z.array(z.object({ feedId: z.string(), entry: z.number().int(), problem: z.string() })),
  }),
});

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  tags: ["system"],
  summary: "Liveness and database reachability",
  responses: { 200: jsonResponse(successEnvelopeSchema(healthSchema), "Healthy"), 503: commonErrors[503] },
});

const configRoute = createRoute({
  method: "get",
  path: "/config",
  tags: ["system"],
  summary: "Public settings the web app needs (bot handle, environment)",
  responses: { 200: jsonResponse(successEnvelopeSchema(appConfigSchema), "Settings") },
});

export function healthRoutes({ database, env, version }: AppDeps) {
  // Reads only: a write added here stays closed to API tokens until its family names a scope.
  const router = createRouter({ writes: "session" }, env);
  router.openapi(healthRoute, async (c) => {
    try {
      await database.ping();
    } catch {
      throw new AppError("UNAVAILABLE", "Database is unreachable.");
    }
    return ok(c, {
      status: "ok" as const,
      database: { driver: database.driver, reachable: true as const },
      version,
      moderationLog: await logHealth(database.db),
    });
  });
  router.openapi(configRoute, (c) => {
    const config: AppConfig = {
      botHandle: env.BOT_HANDLE,
      environment: env.NODE_ENV,
      devTools: env.ENABLE_TEST_ROUTES,
      version,
      publicUrl: env.PUBLIC_URL,
      imageUpload: env.PINATA_JWT ? "pinata" : "local",
      placeholders: Object.keys(env.PLUGIN_SECRET_VALUES).sort(),
      rssHosts: [...rssReadSettings(env).rssHosts],
      pluginHosts: env.PLUGIN_ALLOWED_HOSTS.map((h) => h.toLowerCase()),
      crosspostUrl: env.CROSSPOST_API_URL,
      networks: listeningNetworks(env),
      ...(env.PINATA_JWT ? { pinata: { uploadUrl: env.PINATA_UPLOAD_URL } } : {}),
    };
    return ok(c, config);
  });
  return router;
}
