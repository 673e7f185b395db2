import { context, trace } from "@opentelemetry/api";
import type { Logger } from "pino";
import { VERSION } from "../version.ts";

export interface TracingSettings {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_HEADERS: Readonly<Record<string, string>>;
  OTEL_SERVICE_NAME: string;
}

export interface Tracing {
  /** Sends every finished span now. */
  flush(): Promise<void>;
  /** Sends what is left and unregisters the SDK, so the API is a no-op again. */
  shutdown(): Promise<void>;
}

/**
 * Registers the OpenTelemetry Node SDK (its tracer provider, with a batch processor, and the AsyncLocalStorage
 * context manager that carries the active span across awaits), exporting OTLP/HTTP JSON to
 * `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` through the outbound guard (an operator-configured address). Null when
 * the endpoint is not set, and then none of the SDK is loaded.
 */
export async function startTracing(settings: TracingSettings, logger: Logger): Promise<Tracing | null> {
  if (!settings.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const [{ TracerProvider, BatchSpanProcessor }, { AsyncLocalStorageContextManager }, resources, exporter] =
    await Promise.all([
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/context-async-hooks"),
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
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  logger.info({ endpoint }, "tracing: exporting spans over OTLP/HTTP");
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
