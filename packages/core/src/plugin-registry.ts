import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./api.ts";
import { configQuarantineSchema } from "./config-quarantine.ts";
import { pagedSchema } from "./envelope.ts";
import { BUILTIN_PLUGIN_PREFIX, findBuiltinPlugin, PLUGIN_TYPES, RESERVED_PLUGIN_SCOPES } from "./plugins.ts";

/**
 * The plugin registry's contracts. The form and the API share these rules, so a browser that skips the form gets
 * the same answer (a 400 naming the field) as a person who fills it in.
 */

export const MAX_PLUGIN_NAME_LENGTH = 100;
export const MAX_PLUGIN_URL_LENGTH = 500;
/** Characters of a schema definition, as JSON text. */
export const MAX_SCHEMA_DEFINITION_LENGTH = 20_000;

/**
 * A registered plugin's name: `@scope/name` in ASCII lower case. The scope is letters, digits and hyphens (at most
 * 39 characters, like a GitHub account); the name may also use dots and underscores. Short names such as `rss` are
 * left to the built-ins (decision 0022).
 */
export const PLUGIN_NAME_PATTERN = /^@([a-z0-9][a-z0-9-]{0,38})\/([a-z0-9][a-z0-9._-]*)$/;

export const PLUGIN_NAME_MESSAGES = {
  tooLong: `Plugin name must be at most ${MAX_PLUGIN_NAME_LENGTH} characters`,
  builtin: (name: string, builtin: string) =>
    `"${name}" is the built-in plugin ${builtin}: feeds naming it always run the built-in. Name yours under your own scope, e.g. @acme/summary`,
  lowerCase: "Plugin names are lower-case: @acme/summary, not @Acme/Summary",
  form: "Plugin name must be @scope/name: lower-case letters, digits and hyphens (the name may also use . and _), e.g. @acme/summary",
  reservedScope: (scope: string) =>
    `The scope @${scope} is reserved for Curate's built-in plugins: use a scope of your own, e.g. @acme/summary`,
} as const;

/** Why `name` cannot be registered, or null when it can (the form and the API give the same message). */
export function pluginNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return PLUGIN_MESSAGES.create.name;
  if (trimmed.length > MAX_PLUGIN_NAME_LENGTH) return PLUGIN_NAME_MESSAGES.tooLong;
  const builtin = findBuiltinPlugin(trimmed);
  if (builtin) return PLUGIN_NAME_MESSAGES.builtin(trimmed, `${BUILTIN_PLUGIN_PREFIX}${builtin.name}`);
  if (trimmed !== trimmed.toLowerCase()) return PLUGIN_NAME_MESSAGES.lowerCase;
  const scope = PLUGIN_NAME_PATTERN.exec(trimmed)?.[1];
  if (!scope) return PLUGIN_NAME_MESSAGES.form;
  if ((RESERVED_PLUGIN_SCOPES as readonly string[]).includes(scope)) {
    return PLUGIN_NAME_MESSAGES.reservedScope(scope);
  }
  return null;
}

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
    .max(MAX_PLUGIN_NAME_LENGTH, PLUGIN_NAME_MESSAGES.tooLong)
    .superRefine((name, ctx) => {
      // Emptiness and length have their own messages above.
      if (name === "" || name.length > MAX_PLUGIN_NAME_LENGTH) return;
      const problem = pluginNameProblem(name);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
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
  /** Where its code is published; a built-in's is the deployment's SOURCE_REPOSITORY_URL, or null when unset. */
  repoUrl: z.string().nullable(),
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
  // An existing plugin's name is fixed (and may predate the current rule): the edit form only needs one.
  if (mode === "create") {
    const problem = pluginNameProblem(values.name);
    if (problem) errors.name = problem;
  } else if (values.name.trim() === "") errors.name = messages.name;
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

/** What a plugin notice is about: a plugin of yours renamed, or a feed of yours rewritten to the new name. */
export const PLUGIN_NOTICE_KINDS = ["plugin_renamed", "feed_plugin_renamed"] as const;
export type PluginNoticeKind = (typeof PLUGIN_NOTICE_KINDS)[number];

/**
 * Something the server did to a user's plugins or feeds that they should hear about: the names decision 0022
 * changed. Shown on the Plugins page until dismissed.
 */
export const pluginNoticeSchema = z.object({
  id: z.string(),
  kind: z.enum(PLUGIN_NOTICE_KINDS),
  message: z.string(),
  oldName: z.string(),
  newName: z.string(),
  /** The renamed plugin's number (null once it is deleted). */
  pluginId: z.string().nullable(),
  /** The feeds whose configs now name `newName`. */
  feedIds: z.array(z.string()),
  createdAt: z.string(),
});
export type PluginNotice = z.infer<typeof pluginNoticeSchema>;

export const pluginNoticeQuerySchema = z.object({
  page: pageNumber.default(0),
  limit: limitNumber.default(DEFAULT_PAGE_SIZE),
});
export type PluginNoticeQuery = z.infer<typeof pluginNoticeQuerySchema>;

export const pluginNoticePageSchema = pagedSchema(pluginNoticeSchema);

const quotedList = (items: readonly string[]) => items.map((item) => `"${item}"`).join(", ");

/** A notice as the user reads it. */
export function pluginNoticeMessage(notice: {
  kind: PluginNoticeKind;
  oldName: string;
  newName: string;
  feedIds: readonly string[];
}): string {
  const builtin = findBuiltinPlugin(notice.oldName);
  const meant = builtin
    ? ` If you meant Curate's built-in ${builtin.label} plugin, name "${BUILTIN_PLUGIN_PREFIX}${builtin.name}" instead.`
    : "";
  if (notice.kind === "plugin_renamed") {
    const feeds = notice.feedIds.length
      ? ` Feeds that named it now name "${notice.newName}": ${quotedList(notice.feedIds)}.`
      : "";
    return `Your plugin "${notice.oldName}" is now "${notice.newName}": registered plugins are named @scope/name, and short or built-in names always mean Curate's built-in plugins.${feeds}`;
  }
  const feeds = notice.feedIds.length === 1 ? "Your feed" : "Your feeds";
  return `${feeds} ${quotedList(notice.feedIds)} named the registered plugin "${notice.oldName}", now renamed "${notice.newName}"; the config was changed to keep running it.${meant}`;
}
