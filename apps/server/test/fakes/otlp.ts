import { startFakeServer } from "./server.ts";

/** A span as an OTLP/HTTP JSON export carries it, with its attributes made a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  service: unknown;
}

/** The value of an OTLP AnyValue ({ stringValue }, { intValue }, …). */
function plain(value: Record<string, unknown> | undefined): unknown {
  if (!value) return undefined;
  if ("intValue" in value) return Number(value.intValue);
  return Object.values(value)[0];
}

const attributesOf = (list: Array<{ key: string; value: Record<string, unknown> }> = []) =>
  Object.fromEntries(list.map((attribute) => [attribute.key, plain(attribute.value)]));

/**
 * An OpenTelemetry collector's OTLP/HTTP receiver (`POST /v1/traces`, JSON encoding): it keeps every span it is
 * sent and answers as a collector does, `{}` with 200.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = await startFakeServer((request) => {
    if (request.method !== "POST" || request.path !== "/v1/traces") return { status: 404, body: {} };
    if (!String(request.headers["content-type"]).startsWith("application/json")) {
      return { status: 415, body: { message: "JSON only" } };
    }
    for (const resource of request.body?.resourceSpans ?? []) {
      const service = attributesOf(resource.resource?.attributes)["service.name"];
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            service,
          });
        }
      }
    }
    return { status: 200, body: {} };
  });
  return { url: server.url, spans, requests: server.requests, close: server.close };
}
