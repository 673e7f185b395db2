import type { Logger } from "pino";
import { createMetrics, type Metrics } from "./metrics.ts";
import type { Tracer } from "./tracing.ts";
import { startTracing, type Tracing, type TracingSettings } from "./tracing-sdk.ts";

/**
 * One composition's telemetry (decision 0028): its own metrics registry and, with tracing on, its own tracer. The
 * composition (`serve`, a test's app) makes one and hands it to the app, the intake and the worker it builds, so
 * an app and its worker in one process report together and two apps in one process never mix.
 */
export interface Telemetry {
  metrics: Metrics;
  /** Null while tracing is off: then no span is made anywhere. */
  tracer: Tracer | null;
  /** Sends every finished span now (nothing to do with tracing off). */
  flushTraces(): Promise<void>;
  /** Sends the spans left and stops the tracer provider. */
  shutdown(): Promise<void>;
}

/** Telemetry over the given tracing, or with tracing off. */
export function createTelemetry(tracing: Tracing | null = null): Telemetry {
  return {
    metrics: createMetrics(),
    tracer: tracing?.tracer ?? null,
    flushTraces: async () => tracing?.flush(),
    shutdown: async () => tracing?.shutdown(),
  };
}

/** Telemetry as the environment asks: traces exported when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
export async function startTelemetry(settings: TracingSettings, logger: Logger): Promise<Telemetry> {
  return createTelemetry(await startTracing(settings, logger));
}
