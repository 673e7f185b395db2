import { z } from "zod";

/**
 * Credential fields of configs: a field declared with `secretField()` accepts only a `{{NAME}}` placeholder, which
 * the server fills at run time (never stored, logged or returned filled). Kept apart from the plugins' schemas so
 * the feed config's own settings (its integrations) can declare theirs without importing those.
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
  out?: z.ZodType;
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
    case "pipe": {
      // `.transform()` keeps the shape on the way in, `z.preprocess()` (aliases of older names) on the way out.
      const found = def.in ? secretFields(def.in, prefix, optional) : [];
      const after = def.out ? secretFields(def.out, prefix, optional) : [];
      return [...found, ...after.filter((field) => !found.some((f) => f.path === field.path))];
    }
    default:
      return [];
  }
}

/** The paths of a schema's secret fields (see `secretFields`). */
export function secretPaths(schema: z.ZodType): string[] {
  return secretFields(schema).map((field) => field.path);
}
