import pino from "pino";

const MAX_STRING = 2000;
const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

/**
 * A copy of what is logged with long texts cut, long lists shortened and deep objects summarised, so no request can
 * make a log line as large as what it sent (a 20 MB parameter must not make a 20 MB line).
 */
export function boundedForLog(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[array of ${value.length}]` : "[object]";
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => boundedForLog(item, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… (${value.length} items)`] : items;
  }
  if (value instanceof Error) {
    return {
      type: value.name,
      message: boundedForLog(value.message, depth + 1),
      stack: boundedForLog(value.stack, depth + 1),
      ...((value as { code?: unknown }).code !== undefined
        ? { code: (value as { code?: unknown }).code }
        : {}),
      ...(value.cause !== undefined ? { cause: boundedForLog(value.cause, depth + 1) } : {}),
    };
  }
  const entries = Object.entries(value).slice(0, MAX_ITEMS);
  return Object.fromEntries(entries.map(([key, item]) => [key, boundedForLog(item, depth + 1)]));
}

export function createLogger(level: pino.LevelWithSilent) {
  return pino({
    level,
    base: { service: "curate" },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: (error: unknown) => boundedForLog(error) },
    formatters: { log: (object) => boundedForLog(object) as Record<string, unknown> },
  });
}
