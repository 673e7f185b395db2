import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { VERSION } from "../version.ts";

/**
 * Traces (decision 0028). Code everywhere starts spans through the OpenTelemetry API, which does nothing until a
 * tracer provider is registered; `startTracing` registers the official Node SDK's only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, loading it then. A job carries the traceparent of the span that asked for it
 * (processing_jobs.trace_parent), so one trace runs from an HTTP request or a mention poll through the approval, the
 * job and each step to the outbound call.
 */
const tracer = () => trace.getTracer("curate", VERSION);

export interface SpanOptions {
  kind?: SpanKind;
  /** The parent; the active context when absent. */
  parent?: Context;
  /** Only start a span inside an existing trace (an outbound call made by nothing traced stays untraced). */
  childOnly?: boolean;
}

/** Runs `work` inside a span that ends with it, recording a thrown error on the span before rethrowing it. */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  const parent = options.parent ?? context.active();
  if (options.childOnly && !trace.getSpan(parent)) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return tracer().startActiveSpan(name, { kind: options.kind, attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : undefined,
      });
      throw error;
    } finally {
      span.end();
    }
  });
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The active span as a W3C traceparent, to be stored with work another process continues; null when untraced. */
export function currentTraceParent(): string | null {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 1).toString(16).padStart(2, "0")}`;
}

/** The context a stored or received traceparent names (the root context for anything else). */
export function contextFromTraceParent(traceParent: string | null | undefined): Context {
  const match = TRACEPARENT.exec(traceParent?.trim().toLowerCase() ?? "");
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & 1,
    isRemote: true,
  });
}

export { SpanKind, SpanStatusCode };
