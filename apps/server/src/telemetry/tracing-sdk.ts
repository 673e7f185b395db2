import type { Logger } from "pino";
import { VERSION } from "../version.ts";
import type { Tracer } from "./tracing.ts";

export interface TracingSettings {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS: Readonly<Record<string, string>>;
  OTEL_SERVICE_NAME: string;
}

export interface Tracing {
  /** The tracer of this tracing's own provider: what the composition hands to the roots of its traces. */
  tracer: Tracer;
  /** Sends every finished span now. */
  flush(): Promise<void>;
  /** Sends what is left and stops the provider. */
  shutdown(): Promise<void>;
}

/**
 * A tracer provider of the OpenTelemetry SDK, with a batch processor exporting OTLP/HTTP JSON to
 * `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` through the outbound guard (an operator-configured address). It is the
 * caller's alone: nothing is registered with the API's globals (see `tracing.ts`), so two of them in one process
 * never meet. Null when the endpoint is not set, and then none of the SDK is loaded.
 */
export async function startTracing(settings: TracingSettings, logger: Logger): Promise<Tracing | null> {
  if (!settings.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const [{ TracerProvider, BatchSpanProcessor }, resources, exporter] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    import("./otlp-exporter.ts"),
  ]);
  const endpoint = `${settings.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  const provider = new TracerProvider({
    resource: resources.resourceFromAttributes({
      "service.name": settings.OTEL_SERVICE_NAME,
      "service.version": VERSION,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new exporter.OtlpJsonExporter(endpoint, settings.OTEL_EXPORTER_OTLP_HEADERS, logger),
      }),
    ],
  });
  logger.info({ endpoint }, "tracing: exporting spans over OTLP/HTTP");
  return {
    tracer: provider.getTracer("curate", VERSION),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
