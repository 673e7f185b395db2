import { truncateAtWord } from "@curate/core";

/**
 * The `{{path}}` templates of object-transform and simple-transform (docs/plugins.md): a marker names a value of
 * the input by its dotted path (`author.name`, `media.0.url`), optionally through filters
 * (`{{submittedAt | date}}`). A string that is one marker alone keeps the value's type; markers inside text are
 * written as text (objects as JSON), missing values as nothing. Nothing is HTML-escaped: the output is data, and
 * whoever renders it escapes for its own format.
 */

const MARKER = /\{\{\s*([^{}]+?)\s*\}\}/g;
const LONE_MARKER = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/;
const MAX_OUTPUT_LENGTH = 100_000;

type Filter = (value: unknown, argument: string | undefined) => unknown;

function asDate(value: unknown): Date | null {
  if (value instanceof Date) return value;
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const FILTERS: Record<string, Filter> = {
  upper: (v) => (typeof v === "string" ? v.toUpperCase() : v),
  lower: (v) => (typeof v === "string" ? v.toLowerCase() : v),
  trim: (v) => (typeof v === "string" ? v.trim() : v),
  json: (v) => JSON.stringify(v ?? null),
  /** YYYY-MM-DD in UTC. */
  date: (v) => asDate(v)?.toISOString().slice(0, 10) ?? null,
  /** HH:mm:ss in UTC. */
  time: (v) => asDate(v)?.toISOString().slice(11, 19) ?? null,
  /** ISO 8601 in UTC. */
  datetime: (v) => asDate(v)?.toISOString() ?? null,
  default: (v, arg) => (v === undefined || v === null || v === "" ? (arg ?? "") : v),
  /** At most N characters, cut at a word boundary with an ellipsis. */
  truncate: (v, arg) => {
    const n = Number(arg);
    return typeof v === "string" && Number.isInteger(n) && n >= 1 ? truncateAtWord(v, n) : v;
  },
  join: (v, arg) => (Array.isArray(v) ? v.map((x) => textOf(x)).join(arg ?? ", ") : v),
};

/** Values every template can name besides the input's own. */
function builtin(name: string): unknown {
  if (name === "now") return new Date().toISOString();
  if (name === "today") return new Date().toISOString().slice(0, 10);
  return undefined;
}

/** The input's value at a dotted path (`author.name`, `media.0.url`); `now` and `today` when the input has none. */
export function valueAt(input: unknown, path: string): unknown {
  const parts = path.split(".").filter(Boolean);
  let value: unknown = input;
  for (const part of parts) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) {
      return parts.length === 1 ? builtin(parts[0]) : undefined;
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function unquote(argument: string | undefined): string | undefined {
  if (argument === undefined) return undefined;
  const trimmed = argument.trim();
  const quoted = /^"(.*)"$|^'(.*)'$/s.exec(trimmed);
  return quoted ? (quoted[1] ?? quoted[2]) : trimmed;
}

function evaluate(expression: string, input: unknown): unknown {
  const [path, ...filters] = expression.split("|").map((part) => part.trim());
  let value = valueAt(input, path);
  for (const filter of filters) {
    const colon = filter.indexOf(":");
    const name = colon === -1 ? filter : filter.slice(0, colon).trim();
    const argument = colon === -1 ? undefined : unquote(filter.slice(colon + 1));
    const apply = FILTERS[name];
    if (apply) value = apply(value, argument);
  }
  return value;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Fills a text template: every marker becomes text. */
export function renderText(template: string, input: unknown): string {
  const text = template.replace(MARKER, (_match, expression: string) => textOf(evaluate(expression, input)));
  return text.length > MAX_OUTPUT_LENGTH ? text.slice(0, MAX_OUTPUT_LENGTH) : text;
}

/** Fills a template value: strings (a lone marker keeps its value's type), arrays and objects of them. */
export function renderValue(template: unknown, input: unknown): unknown {
  if (typeof template === "string") {
    const lone = LONE_MARKER.exec(template);
    if (lone) return evaluate(lone[1], input) ?? null;
    return renderText(template, input);
  }
  if (Array.isArray(template)) return template.map((item) => renderValue(item, input));
  if (template && typeof template === "object") {
    return Object.fromEntries(
      Object.entries(template as Record<string, unknown>).map(([key, value]) => [
        key,
        renderValue(value, input),
      ]),
    );
  }
  return template;
}
