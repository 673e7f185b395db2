import { z } from "zod";
import { httpUrlSchema } from "./feeds.ts";

/**
 * Config schemas of the built-in plugins, shared by the server (validation before a step runs and at save), the
 * editor and the plugin guide. Secret fields are declared with `secretField()`: they accept only a `{{NAME}}`
 * placeholder, which the server fills at run time (never stored, logged or returned filled).
 */

/** `{{NAME}}`: an upper-case variable name between double braces, nothing else. */
export const PLACEHOLDER_PATTERN = /^\{\{\s*([A-Z][A-Z0-9_]{0,63})\s*\}\}$/;

export function placeholderName(value: unknown): string | null {
  return typeof value === "string" ? (PLACEHOLDER_PATTERN.exec(value.trim())?.[1] ?? null) : null;
}

const SECRET_META = "curate.secret";

export interface SecretFieldOptions {
  /**
   * The value goes to a host the feed's config chooses (a webhook URL, a database URL): only the feed's own secrets
   * may fill it, never the server's environment, so an owner cannot send the operator's keys to a host of theirs.
   */
  feedOnly?: boolean;
}

/** A credential field: only a `{{NAME}}` placeholder is accepted; the value is filled at run time. */
export function secretField(description: string, options: SecretFieldOptions = {}) {
  return z
    .string()
    .trim()
    .regex(PLACEHOLDER_PATTERN, "Use a {{NAME}} placeholder here; raw secrets are never stored.")
    .describe(description)
    .meta({ [SECRET_META]: options.feedOnly ? "feed-only" : true });
}

function isSecret(schema: z.ZodType): boolean {
  const mark = z.globalRegistry.get(schema)?.[SECRET_META];
  return mark === true || mark === "feed-only";
}

function isFeedOnly(schema: z.ZodType): boolean {
  return z.globalRegistry.get(schema)?.[SECRET_META] === "feed-only";
}

type ZodDef = {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  in?: z.ZodType;
};

export interface SecretPath {
  /** Dotted keys (`auth.token`); `*` stands for any array index. */
  path: string;
  feedOnly: boolean;
  /** The plugin works without it (e.g. the RSS service's secret, which only an external service needs). */
  optional: boolean;
}

/** The secret fields of a schema, walking objects, arrays and the optional/nullable/default wrappers. */
export function secretFields(schema: z.ZodType, prefix: string[] = [], optional = false): SecretPath[] {
  if (isSecret(schema)) return [{ path: prefix.join("."), feedOnly: isFeedOnly(schema), optional }];
  const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  switch (def.type) {
    case "object":
      return Object.entries(def.shape ?? {}).flatMap(([key, child]) =>
        secretFields(child, [...prefix, key], optional),
      );
    case "array":
      return def.element ? secretFields(def.element, [...prefix, "*"], optional) : [];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
      return def.innerType ? secretFields(def.innerType, prefix, true) : [];
    case "catch":
    case "readonly":
    case "nonoptional":
      return def.innerType ? secretFields(def.innerType, prefix, optional) : [];
    case "pipe":
      return def.in ? secretFields(def.in, prefix, optional) : [];
    default:
      return [];
  }
}

/** The paths of a schema's secret fields (see `secretFields`). */
export function secretPaths(schema: z.ZodType): string[] {
  return secretFields(schema).map((field) => field.path);
}

const MAX_TEMPLATE_LENGTH = 10_000;
const MAX_TEMPLATE_DEPTH = 8;

/** A template value of object-transform: a string with `{{path}}` markers, or arrays and objects of them. */
export type TemplateValue =
  | string
  | number
  | boolean
  | null
  | TemplateValue[]
  | { [key: string]: TemplateValue };

function templateValue(depth: number): z.ZodType<TemplateValue> {
  const leaf = z.union([z.string().max(MAX_TEMPLATE_LENGTH), z.number(), z.boolean(), z.null()]);
  if (depth >= MAX_TEMPLATE_DEPTH) return leaf;
  const inner = z.lazy(() => templateValue(depth + 1));
  return z.union([
    leaf,
    z.array(inner).max(100),
    z.record(z.string().max(200), inner),
  ]) as z.ZodType<TemplateValue>;
}

export const objectTransformConfigSchema = z.object({
  mappings: z
    .record(z.string().min(1).max(200), templateValue(1))
    .refine((m) => Object.keys(m).length <= 100, "At most 100 mappings"),
});
export type ObjectTransformConfig = z.infer<typeof objectTransformConfigSchema>;

export const simpleTransformConfigSchema = z.object({
  template: z.string().min(1, "A template is required").max(MAX_TEMPLATE_LENGTH),
});
export type SimpleTransformConfig = z.infer<typeof simpleTransformConfigSchema>;

/** A field of an AI transform's reply, in the JSON Schema subset the wizard writes. */
export type AiFieldSchema = {
  type: "string" | "number" | "integer" | "boolean" | "array" | "object";
  description?: string;
  items?: AiFieldSchema;
  properties?: Record<string, AiFieldSchema>;
};

const aiFieldSchema: z.ZodType<AiFieldSchema> = z.lazy(() =>
  z.object({
    type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
    description: z.string().max(1000).optional(),
    items: aiFieldSchema.optional(),
    properties: z.record(z.string().max(100), aiFieldSchema).optional(),
  }),
);

export const aiTransformConfigSchema = z.object({
  prompt: z.string().min(1, "A prompt is required").max(20_000),
  apiKey: secretField("The AI service key, as a {{NAME}} placeholder"),
  model: z.string().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** "json": the reply is an object (checked against `schema` when given); "text": `{ [outputKey]: reply }`. */
  outputFormat: z.enum(["json", "text"]).optional(),
  outputKey: z.string().min(1).max(100).optional(),
  schema: z
    .record(z.string().min(1).max(100), aiFieldSchema)
    .refine((s) => Object.keys(s).length <= 50, "At most 50 fields")
    .optional(),
  timeoutMs: z.number().int().min(1000).max(300_000).optional(),
  maxTokens: z.number().int().min(1).max(32_000).optional(),
});
export type AiTransformConfig = z.infer<typeof aiTransformConfigSchema>;

export const rssDistributorConfigSchema = z.object({
  /** The feed's own title, description and page, written into the RSS, Atom and JSON Feed documents. */
  feedConfig: z
    .object({
      title: z.string().max(300).optional(),
      description: z.string().max(5000).optional(),
      siteUrl: httpUrlSchema.optional(),
    })
    .optional(),
  /** Where the feed's files are served: this deployment's own `/rss` by default. */
  serviceUrl: httpUrlSchema.optional(),
  /** An external RSS service's bearer secret. */
  apiSecret: secretField("The external RSS service's secret, as a {{NAME}} placeholder").optional(),
  /** How many of the newest items the feed keeps (default 500). */
  maxItems: z.number().int().min(1).max(5000).optional(),
});
export type RssDistributorConfig = z.infer<typeof rssDistributorConfigSchema>;

/** Config schemas by built-in short name; plugins without one here accept any object. */
export const BUILTIN_CONFIG_SCHEMAS: Partial<Record<string, z.ZodType>> = {
  "object-transform": objectTransformConfigSchema,
  "simple-transform": simpleTransformConfigSchema,
  "ai-transform": aiTransformConfigSchema,
  rss: rssDistributorConfigSchema,
};

export interface PlaceholderUse {
  /** Where in the feed config the placeholder sits (`outputs.stream.transform.1.config.apiKey`). */
  path: string;
  name: string;
}

function placeholdersAt(value: unknown, path: string[], at: string, out: PlaceholderUse[]) {
  if (path.length === 0) {
    const name = placeholderName(value);
    if (name) out.push({ path: at, name });
    return;
  }
  const [head, ...rest] = path;
  if (head === "*") {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) placeholdersAt(item, rest, `${at}.${i}`, out);
    }
    return;
  }
  if (value && typeof value === "object" && Object.hasOwn(value, head)) {
    placeholdersAt((value as Record<string, unknown>)[head], rest, `${at}.${head}`, out);
  }
}

interface StepLike {
  plugin: string;
  config?: unknown;
}

/**
 * The `{{NAME}}` placeholders a feed's stream needs at run time (the required secret fields of its built-in steps),
 * so the wizard and the editor can warn about names the server cannot fill. `builtinName` maps a plugin name to its
 * built-in short name (core's plugin table), kept as a parameter so this module needs nothing else.
 */
export function streamPlaceholders(
  stream: { transform?: StepLike[]; distribute?: Array<StepLike & { transform?: StepLike[] }> } | undefined,
  builtinName: (plugin: string) => string | null,
): PlaceholderUse[] {
  const out: PlaceholderUse[] = [];
  const visit = (step: StepLike, at: string) => {
    const name = builtinName(step.plugin);
    const schema = name ? BUILTIN_CONFIG_SCHEMAS[name] : undefined;
    if (!schema) return;
    for (const field of secretFields(schema)) {
      if (!field.optional) placeholdersAt(step.config, field.path.split("."), `${at}.config`, out);
    }
  };
  for (const [i, step] of (stream?.transform ?? []).entries()) visit(step, `outputs.stream.transform.${i}`);
  for (const [i, distributor] of (stream?.distribute ?? []).entries()) {
    for (const [j, step] of (distributor.transform ?? []).entries()) {
      visit(step, `outputs.stream.distribute.${i}.transform.${j}`);
    }
    visit(distributor, `outputs.stream.distribute.${i}`);
  }
  return out;
}
