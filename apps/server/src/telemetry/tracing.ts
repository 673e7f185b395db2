import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Attributes,
  type Context,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";

/**
 * Traces (decision 0028). Each composition (a server, a test's app) owns its tracer, made by its own tracer
 * provider when OTEL_EXPORTER_OTLP_ENDPOINT is set (`tracing-sdk.ts`), or none. Nothing is registered with the
 * OpenTelemetry API's process-wide globals: a second app in the process would be refused there, and one app's
 * shutdown would switch tracing off for all. A trace starts at a root (an HTTP request, a mention poll, a job) given
 * its composition's tracer; below it, spans start from the trace the async chain is in, carrying that tracer along.
 * A job carries the traceparent of the span that asked for it (processing_jobs.trace_parent), so one trace runs from
 * an HTTP request or a mention poll through the approval, the job and each step to the outbound call.
 */
interface ActiveTrace {
  tracer: Tracer;
  context: Context;
}

// Holds no state of its own: each async chain carries the trace (and the tracer) its root started.
const activeTrace = new AsyncLocalStorage<ActiveTrace>();

/** What untraced work is handed as its span: records nothing. */
const UNTRACED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

function runInSpan<T>(
  tracer: Tracer,
  parent: Context,
  name: string,
  attributes: Attributes,
  kind: SpanKind | undefined,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  return activeTrace.run({ tracer, context: trace.setSpan(parent, span) }, async () => {
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

export interface RootSpanOptions {
  kind?: SpanKind;
  /** A traceparent the work continues (a caller's header, a job's stored one); a new trace when absent. */
  traceParent?: string | null;
}

/**
 * Runs `work` as the root of a trace (or continuing `traceParent`) with `tracer`; with no tracer (tracing off) the
 * work runs outside any trace, so nothing below it is traced either.
 */
export function withRootSpan<T>(
  tracer: Tracer | null,
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: RootSpanOptions = {},
): Promise<T> {
  if (!tracer) return activeTrace.exit(() => work(UNTRACED));
  return runInSpan(tracer, contextFromTraceParent(options.traceParent), name, attributes, options.kind, work);
}

/**
 * Runs `work` inside a child span of the trace it is part of, recording a thrown error on the span before rethrowing
 * it. Work outside any trace (an outbound call made by nothing traced) stays untraced.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: { kind?: SpanKind } = {},
): Promise<T> {
  const active = activeTrace.getStore();
  if (!active) return work(UNTRACED);
  return runInSpan(active.tracer, active.context, name, attributes, options.kind, work);
}

/** Runs `work` outside any trace: the exporter's own requests must not become spans of the trace they export. */
export function untraced<T>(work: () => T): T {
  return activeTrace.exit(work);
}

/** The active span as a W3C traceparent, to be stored with work another process continues; null when untraced. */
export function currentTraceParent(): string | null {
  const active = activeTrace.getStore();
  const span = active && trace.getSpan(active.context);
  if (!span?.isRecording()) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 1).toString(16).padStart(2, "0")}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The context a stored or received traceparent names (the root context for anything else). */
function contextFromTraceParent(traceParent: string | null | undefined): Context {
  const match = TRACEPARENT.exec(traceParent?.trim().toLowerCase() ?? "");
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & 1,
    isRemote: true,
  });
}

export { SpanKind, SpanStatusCode, type Tracer };
