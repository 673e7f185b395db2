import { builtinPluginName, findBuiltinPlugin, streamPlaceholders } from "@curate/core";

/** A `{{NAME}}` a step of the stream needs at run time and this server has no value for. */
export interface UnfillablePlaceholder {
  name: string;
  /** Where the step sits in the feed config: `outputs.stream.transform.1`. */
  stepPath: string;
  /** The step's built-in short name (`ai-transform`). */
  plugin: string;
  /** How the step is called on screen (`AI transform`). */
  label: string;
}

type StepLike = { plugin: string; config?: unknown };
type DistributorLike = StepLike & { transform?: StepLike[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// Entries that are not steps stay as nameless steps, so every index still points at the same step of the config.
function asStep(value: unknown): StepLike {
  return isObject(value) && typeof value.plugin === "string"
    ? { plugin: value.plugin, config: value.config }
    : { plugin: "" };
}

function asSteps(value: unknown): StepLike[] {
  return Array.isArray(value) ? value.map(asStep) : [];
}

/** The stream of any config, typed or typed by hand in the JSON view, in the shape `streamPlaceholders` reads. */
function streamOf(config: unknown): { transform: StepLike[]; distribute: DistributorLike[] } | undefined {
  const outputs = isObject(config) ? config.outputs : undefined;
  const stream = isObject(outputs) ? outputs.stream : undefined;
  if (!isObject(stream)) return undefined;
  return {
    transform: asSteps(stream.transform),
    distribute: Array.isArray(stream.distribute)
      ? stream.distribute.map((entry) => ({
          ...asStep(entry),
          transform: asSteps(isObject(entry) ? entry.transform : undefined),
        }))
      : [],
  };
}

function stepAt(config: unknown, stepPath: string): StepLike {
  let value: unknown = config;
  for (const key of stepPath.split(".")) {
    if (Array.isArray(value)) value = value[Number(key)];
    else if (isObject(value)) value = value[key];
    else return asStep(undefined);
  }
  return asStep(value);
}

/**
 * The placeholders of a feed config's stream that `available` (GET /api/config's `placeholders`) cannot fill,
 * one per step and name: each such step fails on every job until the operator sets the variable.
 */
export function unfillablePlaceholders(
  config: unknown,
  available: readonly string[],
): UnfillablePlaceholder[] {
  const known = new Set(available);
  const seen = new Set<string>();
  const found: UnfillablePlaceholder[] = [];
  for (const use of streamPlaceholders(streamOf(config), builtinPluginName)) {
    if (known.has(use.name)) continue;
    const stepPath = use.path.slice(0, use.path.indexOf(".config"));
    const key = `${stepPath}|${use.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const plugin = findBuiltinPlugin(stepAt(config, stepPath).plugin);
    if (!plugin) continue;
    found.push({ name: use.name, stepPath, plugin: plugin.name, label: plugin.label });
  }
  return found;
}

/** "This server has no value for {{AI_API_KEY}}: the AI transform step will fail on every job until …" */
export function unfillableText(
  placeholder: Pick<UnfillablePlaceholder, "name" | "label">,
  where: { feedSecrets?: boolean } = {},
): string {
  // A saved feed has its own secrets, which the owner can add; a draft in the wizard has none yet.
  return where.feedSecrets
    ? `Neither this feed's secrets nor this server have a value for {{${placeholder.name}}}: the ${placeholder.label} step will fail on every job until you add it under Secrets (or the operator sets it).`
    : `This server has no value for {{${placeholder.name}}}: the ${placeholder.label} step will fail on every job until the operator sets it.`;
}

/** A copy of the config without the step at `stepPath` (an entry of a stream's transform or distribute list). */
export function withoutStep<T>(config: T, stepPath: string): T {
  const keys = stepPath.split(".");
  const remove = (value: unknown, depth: number): unknown => {
    const key = keys[depth];
    if (Array.isArray(value)) {
      const index = Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= value.length) return value;
      if (depth === keys.length - 1) return value.filter((_, i) => i !== index);
      return value.map((item, i) => (i === index ? remove(item, depth + 1) : item));
    }
    if (!isObject(value) || !Object.hasOwn(value, key) || depth === keys.length - 1) return value;
    return { ...value, [key]: remove(value[key], depth + 1) };
  };
  return remove(config, 0) as T;
}
