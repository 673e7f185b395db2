import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./api.ts";
import { configQuarantineSchema } from "./config-quarantine.ts";
import { pagedSchema } from "./envelope.ts";
import { PLUGIN_TYPES } from "./plugins.ts";

/**
 * The plugin registry's contracts. The form and the API share these rules, so a browser that skips the form gets
 * the same answer (a 400 naming the field) as a person who fills it in.
 */

export const MAX_PLUGIN_NAME_LENGTH = 100;
export const MAX_PLUGIN_URL_LENGTH = 500;
/** Characters of a schema definition, as JSON text. */
export const MAX_SCHEMA_DEFINITION_LENGTH = 20_000;

export const PLUGIN_MESSAGES = {
  create: {
    name: "Plugin name is required",
    repoUrl: "Must be a valid repository URL (e.g., GitHub, GitLab)",
    entryPoint: "Entry point must be a valid URL (e.g., https://example.com/remoteEntry.js)",
    type: "Plugin type is required",
  },
  edit: {
    name: "Name is required",
    repoUrl: "Must be a valid repository URL",
    entryPoint: "Entry point must be a valid URL",
  },
  schemaDefinition: "Invalid JSON for Schema Definition",
} as const;

export const pluginTypeSchema = z.enum(PLUGIN_TYPES);

export function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const urlField = (message: string) =>
  z.string().trim().max(MAX_PLUGIN_URL_LENGTH, message).refine(isHttpUrl, message);

/** A schema definition as the form holds it: empty, or JSON text of an object. */
export function parseSchemaDefinition(text: string): { ok: true; value: object | null } | { ok: false } {
  if (text.trim() === "") return { ok: true, value: null };
  if (text.length > MAX_SCHEMA_DEFINITION_LENGTH) return { ok: false };
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? { ok: true, value }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** On the wire a schema definition is a JSON object (or null for none); the form's JSON text is parsed first. */
const schemaDefinitionField = z
  .union([z.record(z.string(), z.unknown()), z.string(), z.null()])
  .transform((value, ctx) => {
    if (value === null) return null;
    const parsed = parseSchemaDefinition(typeof value === "string" ? value : JSON.stringify(value));
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: PLUGIN_MESSAGES.schemaDefinition });
      return z.NEVER;
    }
    return parsed.value;
  });

export const pluginCreateSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, PLUGIN_MESSAGES.create.name)
    .max(MAX_PLUGIN_NAME_LENGTH, `Plugin name must be at most ${MAX_PLUGIN_NAME_LENGTH} characters`),
  repoUrl: urlField(PLUGIN_MESSAGES.create.repoUrl),
  type: z.enum(PLUGIN_TYPES, PLUGIN_MESSAGES.create.type),
  entryPoint: urlField(PLUGIN_MESSAGES.create.entryPoint),
  schemaDefinition: schemaDefinitionField.optional(),
});
export type PluginCreate = z.output<typeof pluginCreateSchema>;

/** Name and repository are the plugin's identity: they never change after registration. */
export const pluginUpdateSchema = z.strictObject({
  entryPoint: urlField(PLUGIN_MESSAGES.edit.entryPoint).optional(),
  schemaDefinition: schemaDefinitionField.optional(),
});
export type PluginUpdate = z.output<typeof pluginUpdateSchema>;

export const pluginSchema = z.object({
  /** A registered plugin's number, or `builtin-<name>` for a built-in. */
  id: z.string(),
  name: z.string(),
  type: pluginTypeSchema,
  repoUrl: z.string(),
  entryPoint: z.string(),
  schemaDefinition: z.record(z.string(), z.unknown()).nullable(),
  builtin: z.boolean(),
  /** Whether the signed-in user may edit and delete it (the registrant or a super admin; never a built-in). */
  canEdit: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** Set only in the answers its registrant and super admins get: everyone else is told there is no such plugin. */
  quarantine: configQuarantineSchema.nullable(),
});
export type RegistryPlugin = z.infer<typeof pluginSchema>;

const pageNumber = z
  .string()
  .regex(/^\d+$/, "page must be a non-negative integer")
  .transform(Number)
  .pipe(z.number().int().min(0).max(1_000_000));
const limitNumber = z
  .string()
  .regex(/^\d+$/, "limit must be an integer")
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(1, "limit must be at least 1")
      .max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`),
  );

export const pluginListQuerySchema = z.object({
  type: pluginTypeSchema.optional(),
  name: z.string().trim().max(MAX_PLUGIN_NAME_LENGTH).optional(),
  page: pageNumber.default(0),
  limit: limitNumber.default(DEFAULT_PAGE_SIZE),
});
export type PluginListQuery = z.infer<typeof pluginListQuerySchema>;

export const pluginPageSchema = pagedSchema(pluginSchema);

export const BUILTIN_PLUGIN_ID_PREFIX = "builtin-";

/** What the registration and edit forms hold: text as typed. */
export interface PluginFormValues {
  name: string;
  repoUrl: string;
  type: string;
  entryPoint: string;
  schemaDefinition: string;
}

export type PluginFormErrors = Partial<Record<keyof PluginFormValues, string>>;

/** The form's checks, with the create or the edit form's messages; empty when the values can be sent. */
export function pluginFormErrors(values: PluginFormValues, mode: "create" | "edit"): PluginFormErrors {
  const errors: PluginFormErrors = {};
  const messages = PLUGIN_MESSAGES[mode];
  const validUrl = (text: string) => text.trim().length <= MAX_PLUGIN_URL_LENGTH && isHttpUrl(text.trim());
  if (values.name.trim() === "") errors.name = messages.name;
  if (!validUrl(values.repoUrl)) errors.repoUrl = messages.repoUrl;
  if (!validUrl(values.entryPoint)) errors.entryPoint = messages.entryPoint;
  if (mode === "create" && !(PLUGIN_TYPES as readonly string[]).includes(values.type)) {
    errors.type = PLUGIN_MESSAGES.create.type;
  }
  if (!parseSchemaDefinition(values.schemaDefinition).ok)
    errors.schemaDefinition = PLUGIN_MESSAGES.schemaDefinition;
  return errors;
}

/**
 * Why this server refuses to run code from `entryPoint`, or null when its host is allowed. The pipeline's step error
 * and the form's warning say the same.
 */
export function entryPointRefusal(entryPoint: string, allowedHosts: readonly string[]): string | null {
  if (allowedHosts.length === 0) return "remote plugins are disabled";
  let url: URL;
  try {
    url = new URL(entryPoint);
  } catch {
    return `host not allowed: ${entryPoint}`;
  }
  const allowed = allowedHosts.some((host) => {
    const wanted = host.toLowerCase();
    return wanted === url.host.toLowerCase() || wanted === url.hostname.toLowerCase();
  });
  return allowed ? null : `host not allowed: ${url.host}`;
}
