/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests of `/metrics`: every line must be
 * a `# HELP`, a `# TYPE`, a comment or a sample of the family last declared, with valid names, escaped label values
 * and numeric values; a histogram's buckets must be cumulative and end in `+Inf` equal to its `_count`.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** As Prometheus reads a value (Go's ParseFloat): NaN and Inf in any case. */
function parseValue(text: string, line: string): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  const value = Number(text);
  if (text === "" || Number.isNaN(value)) throw new Error(`not a number in: ${line}`);
  return value;
}

/** `name{a="x",b="y"} value [timestamp]` */
function parseSample(line: string): Sample {
  const nameEnd = line.search(/[{ ]/);
  const name = line.slice(0, nameEnd);
  if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
  const labels: Record<string, string> = {};
  let at = nameEnd;
  if (line[at] === "{") {
    at++;
    while (line[at] !== "}") {
      const eq = line.indexOf("=", at);
      const label = line.slice(at, eq);
      if (!LABEL.test(label) || line[eq + 1] !== '"') throw new Error(`bad label in: ${line}`);
      let value = "";
      let i = eq + 2;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\") {
          const next = line[++i];
          if (next === "n") value += "\n";
          else if (next === "\\" || next === '"') value += next;
          else throw new Error(`bad escape in: ${line}`);
        } else value += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated label value in: ${line}`);
      if (label in labels) throw new Error(`label ${label} twice in: ${line}`);
      labels[label] = value;
      at = i + 1;
      if (line[at] === ",") at++;
      else if (line[at] !== "}") throw new Error(`bad label list in: ${line}`);
    }
    at++;
  }
  const rest = line.slice(at).trim().split(/\s+/);
  if (rest.length < 1 || rest.length > 2) throw new Error(`bad sample in: ${line}`);
  if (rest[1] !== undefined && !/^-?\d+$/.test(rest[1])) throw new Error(`bad timestamp in: ${line}`);
  return { name, labels, value: parseValue(rest[0], line) };
}

const SUFFIXES: Record<Family["type"], string[]> = {
  counter: ["", "_total"],
  gauge: [""],
  untyped: [""],
  summary: ["", "_sum", "_count"],
  histogram: ["_bucket", "_sum", "_count"],
};

export function parsePrometheusText(text: string): Family[] {
  const families: Family[] = [];
  const byName = new Map<string, Family>();
  let current: Family | null = null;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      let family = byName.get(name);
      if (!family) {
        family = { name, help: "", type: "untyped", samples: [] };
        byName.set(name, family);
        families.push(family);
      } else if (family !== current) throw new Error(`family ${name} declared in two places`);
      if (kind === "HELP") family.help = rest.replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
      else if (rest in SUFFIXES) family.type = rest as Family["type"];
      else throw new Error(`unknown type in: ${line}`);
      current = family;
      continue;
    }
    if (line.startsWith("#")) continue;
    const sample = parseSample(line);
    if (!current || !SUFFIXES[current.type].some((suffix) => sample.name === current?.name + suffix)) {
      throw new Error(`sample outside its family: ${line}`);
    }
    current.samples.push(sample);
  }
  for (const family of families.filter((f) => f.type === "histogram")) checkHistogram(family);
  return families;
}

/** The labels of a sample but `le`, as a key. */
const seriesKey = (labels: Record<string, string>) =>
  JSON.stringify(
    Object.entries(labels)
      .filter(([name]) => name !== "le")
      .sort(),
  );

function checkHistogram(family: Family) {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples.filter((s) => s.name.endsWith("_bucket"))) {
    if (!("le" in sample.labels)) throw new Error(`${family.name}: a bucket without le`);
    const key = seriesKey(sample.labels);
    series.set(key, [...(series.get(key) ?? []), sample]);
  }
  for (const [key, buckets] of series) {
    let previous = -1;
    for (const bucket of buckets) {
      if (bucket.value < previous) throw new Error(`${family.name}${key}: buckets are not cumulative`);
      previous = bucket.value;
    }
    const last = buckets.at(-1);
    const count = family.samples.find((s) => s.name.endsWith("_count") && seriesKey(s.labels) === key);
    if (last?.labels.le !== "+Inf" || count?.value !== last.value) {
      throw new Error(`${family.name}${key}: the +Inf bucket must end the series and equal _count`);
    }
  }
}

/** One series' value: a counter's or gauge's sample, or a histogram's `_count`. */
export function seriesValue(family: Family, labels: Record<string, string>): number | undefined {
  const suffix = family.type === "histogram" ? "_count" : "";
  const matches = (sample: Sample) =>
    sample.name === family.name + suffix ||
    (family.type === "counter" && sample.name === `${family.name}_total`);
  return family.samples.find(
    (sample) =>
      matches(sample) && Object.entries(labels).every(([name, value]) => sample.labels[name] === value),
  )?.value;
}
