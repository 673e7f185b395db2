import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import type { Logger } from "pino";
import { callExternal } from "../clients/http.ts";
import { untraced } from "./tracing.ts";

/** ExportResultCode of @opentelemetry/core: SUCCESS 0, FAILED 1. */
const SUCCESS = 0;
const FAILED = 1;

/**
 * Sends finished spans as OTLP/HTTP JSON (`application/json`, the protocol's JSON encoding) to the collector the
 * operator configured, through `clients/http.ts` like every request the server makes. Loaded only with tracing on.
 */
export class OtlpJsonExporter implements SpanExporter {
  private readonly url: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly logger: Logger;
  private pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(url: string, headers: Readonly<Record<string, string>>, logger: Logger) {
    this.url = url;
    this.headers = headers;
    this.logger = logger;
  }

  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
    if (this.stopped) {
      done({ code: FAILED, error: new Error("The exporter is shut down.") });
      return;
    }
    const serialised = JsonTraceSerializer.serializeRequest(spans);
    if (!serialised) {
      done({ code: FAILED, error: new Error("Spans could not be serialised.") });
      return;
    }
    // The serialiser answers UTF-8 JSON as bytes; as text it is a body every fetch typing accepts.
    const body = new TextDecoder().decode(serialised);
    // The batch may be sent from within a traced chain (a span's end starts the batch's timer): its request is not
    // part of that trace, or each export would make a span to export.
    const sent = untraced(() =>
      callExternal(
        this.url,
        { method: "POST", headers: { ...this.headers, "content-type": "application/json" }, body },
        { service: "OTLP collector", reach: "configured", timeoutMs: 10_000, retries: 2, maxBackoffMs: 5000 },
      ),
    )
      .then(async (response) => {
        await response.body?.cancel();
        if (!response.ok) throw new Error(`The OTLP collector answered ${response.status}.`);
        done({ code: SUCCESS });
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, "tracing: spans could not be exported");
        done({ code: FAILED, error: error instanceof Error ? error : new Error(String(error)) });
      })
      .finally(() => this.pending.delete(sent));
    this.pending.add(sent);
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.pending);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped = true;
  }
}
