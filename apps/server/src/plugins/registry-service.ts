import {
  BUILTIN_CONFIG_SCHEMAS,
  BUILTIN_PLUGIN_ID_PREFIX,
  BUILTIN_PLUGIN_PREFIX,
  BUILTIN_PLUGINS,
  type BuiltinPlugin,
  entryPointRefusal,
  findBuiltinPlugin,
  type Paged,
  type PluginCreate,
  type PluginListQuery,
  type PluginNotice,
  type PluginNoticeQuery,
  type PluginUpdate,
  pluginNameProblem,
  pluginNoticeMessage,
  type RegistryPlugin,
} from "@curate/core";
import { and, asc, count, desc, eq, ilike, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { pluginNotices, plugins, type User } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { isSuperAdmin } from "../feeds/permissions.ts";
import { findRawSecretsInPlugin } from "../feeds/secrets.ts";
import { schemaDefinitionProblem } from "./json-schema.ts";

type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS" | "PLUGIN_ALLOWED_HOSTS" | "SOURCE_REPOSITORY_URL">;
type PluginRow = typeof plugins.$inferSelect;

/**
 * The built-ins as registry entries: read-only, each with its config schema as JSON Schema. Their code is this
 * deployment's own, so their repository is the one SOURCE_REPOSITORY_URL names (`builtinEntry`), or none.
 */
const BUILTIN_ENTRIES: RegistryPlugin[] = (BUILTIN_PLUGINS as readonly BuiltinPlugin[]).map((plugin) => {
  const schema = BUILTIN_CONFIG_SCHEMAS[plugin.name];
  return {
    id: `${BUILTIN_PLUGIN_ID_PREFIX}${plugin.name}`,
    name: `${BUILTIN_PLUGIN_PREFIX}${plugin.name}`,
    type: plugin.type,
    repoUrl: null,
    entryPoint: `builtin:${plugin.name}`,
    schemaDefinition: schema
      ? (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>)
      : null,
    builtin: true,
    canEdit: false,
    createdBy: null,
    createdAt: null,
    updatedAt: null,
    quarantine: null,
  };
});

const builtinEntry = (env: Env, entry: RegistryPlugin): RegistryPlugin => ({
  ...entry,
  repoUrl: env.SOURCE_REPOSITORY_URL ?? null,
});

function canEdit(env: Env, user: User | null, row: PluginRow) {
  if (!user) return false;
  return isSuperAdmin(env, user) || (row.createdBy ?? "").toLowerCase() === user.nearAccountId.toLowerCase();
}

function toEntry(env: Env, user: User | null, row: PluginRow): RegistryPlugin {
  return {
    id: String(row.id),
    name: row.name,
    type: row.type,
    repoUrl: row.repoUrl,
    entryPoint: row.entryPoint,
    schemaDefinition: row.schemaDefinition ?? null,
    builtin: false,
    canEdit: canEdit(env, user, row),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    quarantine: row.secretFindings?.length ? { findings: row.secretFindings } : null,
  };
}

/**
 * A quarantined registration (feeds/quarantine.ts) is listed and shown only to those who may fix it: its
 * registrant and super admins.
 */
function visibleTo(env: Env, user: User | null) {
  if (isSuperAdmin(env, user)) return undefined;
  if (!user) return isNull(plugins.secretFindings);
  return sql`(${plugins.secretFindings} is null or lower(${plugins.createdBy}) = ${user.nearAccountId.toLowerCase()})`;
}

/** Refuses a registration whose stored fields would hold a raw credential, naming each field. */
function assertNoRawSecrets(fields: Parameters<typeof findRawSecretsInPlugin>[0]) {
  const issues = findRawSecretsInPlugin(fields);
  if (issues.length) {
    throw AppError.validation(
      `Invalid plugin: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The registry, built-ins first (they never change), then registered plugins by name; filtered by type and by a
 * part of the name, paged like every list.
 */
export async function listPlugins(
  db: Database,
  env: Env,
  user: User | null,
  query: PluginListQuery,
): Promise<Paged<RegistryPlugin>> {
  const needle = query.name?.toLowerCase() ?? "";
  const builtins = BUILTIN_ENTRIES.filter(
    (entry) => (!query.type || entry.type === query.type) && entry.name.toLowerCase().includes(needle),
  );
  const where = and(
    query.type ? eq(plugins.type, query.type) : undefined,
    needle ? ilike(plugins.name, `%${escapeLike(needle)}%`) : undefined,
    visibleTo(env, user),
  );
  const start = query.page * query.limit;
  const fromBuiltins = builtins.slice(start, start + query.limit);
  const offset = Math.max(0, start - builtins.length);
  const room = query.limit - fromBuiltins.length;
  const [rows, [{ total }]] = await Promise.all([
    room > 0
      ? db
          .select()
          .from(plugins)
          .where(where)
          .orderBy(asc(sql`lower(${plugins.name})`), asc(plugins.id))
          .limit(room)
          .offset(offset)
      : Promise.resolve([] as PluginRow[]),
    db.select({ total: count() }).from(plugins).where(where),
  ]);
  const totalCount = builtins.length + total;
  return {
    items: [
      ...fromBuiltins.map((entry) => builtinEntry(env, entry)),
      ...rows.map((row) => toEntry(env, user, row)),
    ],
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: start + query.limit < totalCount,
      totalCount,
    },
  };
}

async function findRow(db: Database, id: string): Promise<PluginRow | null> {
  if (!/^\d{1,9}$/.test(id)) return null;
  const [row] = await db
    .select()
    .from(plugins)
    .where(eq(plugins.id, Number(id)));
  return row ?? null;
}

export async function getPlugin(
  db: Database,
  env: Env,
  user: User | null,
  id: string,
): Promise<RegistryPlugin> {
  const builtin = BUILTIN_ENTRIES.find((entry) => entry.id === id);
  if (builtin) return builtinEntry(env, builtin);
  const row = await findRow(db, id);
  if (!row || (row.secretFindings?.length && !canEdit(env, user, row))) {
    throw AppError.notFound(`Plugin "${id}" not found.`);
  }
  return toEntry(env, user, row);
}

/**
 * A registered plugin by the name a feed config writes (case-insensitive), or null. A built-in's name, alias or
 * short name is never looked up: whatever row holds one (a registration older than decision 0022), it belongs to
 * the built-in.
 */
export async function findPluginByName(db: Database, name: string): Promise<PluginRow | null> {
  if (findBuiltinPlugin(name)) return null;
  const [row] = await db
    .select()
    .from(plugins)
    .where(sql`lower(${plugins.name}) = ${name.trim().toLowerCase()}`);
  return row ?? null;
}

/** Code this server would refuse to run is refused when registered, so the registry never lists it. */
function assertAllowedEntryPoint(env: Env, entryPoint: string) {
  const refusal = entryPointRefusal(entryPoint, env.PLUGIN_ALLOWED_HOSTS);
  if (!refusal) return;
  const message =
    env.PLUGIN_ALLOWED_HOSTS.length === 0
      ? "This server runs no remote plugins (its operator left PLUGIN_ALLOWED_HOSTS empty), so it registers none."
      : `This server runs plugins only from ${env.PLUGIN_ALLOWED_HOSTS.join(", ")} (PLUGIN_ALLOWED_HOSTS): ${refusal}.`;
  throw AppError.validation(`Entry point refused: ${message}`, [{ path: "entryPoint", message }]);
}

function assertRegistrableName(name: string) {
  const problem = pluginNameProblem(name);
  if (problem) throw AppError.validation(`Invalid name: ${problem}`, [{ path: "name", message: problem }]);
}

function assertUsableSchema(schemaDefinition: object | null | undefined) {
  if (!schemaDefinition) return;
  const problem = schemaDefinitionProblem(schemaDefinition);
  if (problem) {
    throw AppError.validation(`Invalid schemaDefinition: ${problem}`, [
      { path: "schemaDefinition", message: problem },
    ]);
  }
}

const isUniqueViolation = (err: unknown): err is { constraint?: string } => {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
};

async function conflictOf(db: Database, name: string, repoUrl: string): Promise<AppError | null> {
  const [byName] = await db
    .select({ id: plugins.id })
    .from(plugins)
    .where(sql`lower(${plugins.name}) = ${name.toLowerCase()}`);
  if (byName) return AppError.conflict(`A plugin named "${name}" is already registered.`);
  const [byRepo] = await db
    .select({ id: plugins.id })
    .from(plugins)
    .where(sql`lower(${plugins.repoUrl}) = ${repoUrl.toLowerCase()}`);
  if (byRepo) return AppError.conflict(`A plugin from ${repoUrl} is already registered.`);
  return null;
}

/** Registers a plugin for the signed-in user, who alone (with super admins) may change it later. */
export async function createPlugin(
  db: Database,
  env: Env,
  user: User,
  body: PluginCreate,
  limits: { pluginsPerAccount: number },
): Promise<RegistryPlugin> {
  assertRegistrableName(body.name);
  assertAllowedEntryPoint(env, body.entryPoint);
  assertUsableSchema(body.schemaDefinition);
  assertNoRawSecrets(body);
  const [{ owned }] = await db
    .select({ owned: count() })
    .from(plugins)
    .where(sql`lower(${plugins.createdBy}) = ${user.nearAccountId.toLowerCase()}`);
  if (owned >= limits.pluginsPerAccount) {
    throw AppError.forbidden(
      `You have registered ${owned} plugins, the most one account may register on this server. Delete one to register another.`,
    );
  }
  const conflict = await conflictOf(db, body.name, body.repoUrl);
  if (conflict) throw conflict;
  try {
    const [row] = await db
      .insert(plugins)
      .values({
        name: body.name,
        type: body.type,
        repoUrl: body.repoUrl,
        entryPoint: body.entryPoint,
        schemaDefinition: (body.schemaDefinition ?? null) as Record<string, unknown> | null,
        createdBy: user.nearAccountId,
      })
      .returning();
    return toEntry(env, user, row);
  } catch (err) {
    // Two registrations raced past the check: the unique indexes decide, and the loser hears why.
    if (isUniqueViolation(err)) {
      throw (
        (await conflictOf(db, body.name, body.repoUrl)) ??
        AppError.conflict("The plugin is already registered.")
      );
    }
    throw err;
  }
}

async function editableRow(db: Database, env: Env, user: User, id: string): Promise<PluginRow> {
  if (BUILTIN_ENTRIES.some((entry) => entry.id === id)) {
    throw AppError.forbidden("Built-in plugins are read-only.");
  }
  const row = await findRow(db, id);
  if (!row) throw AppError.notFound(`Plugin "${id}" not found.`);
  if (!canEdit(env, user, row)) {
    throw AppError.forbidden("Only the plugin's registrant or a super admin may change it.");
  }
  return row;
}

export async function updatePlugin(
  db: Database,
  env: Env,
  user: User,
  id: string,
  body: PluginUpdate,
): Promise<RegistryPlugin> {
  assertUsableSchema(body.schemaDefinition);
  assertNoRawSecrets(body);
  const row = await editableRow(db, env, user, id);
  if (body.entryPoint !== undefined && body.entryPoint !== row.entryPoint) {
    assertAllowedEntryPoint(env, body.entryPoint);
  }
  const entryPoint = body.entryPoint ?? row.entryPoint;
  const schemaDefinition =
    body.schemaDefinition === undefined
      ? row.schemaDefinition
      : ((body.schemaDefinition ?? null) as Record<string, unknown> | null);
  // A quarantine ends once nothing stored holds a credential; one in the repository URL, which cannot change,
  // lasts until the plugin is registered again.
  const findings = findRawSecretsInPlugin({ repoUrl: row.repoUrl, entryPoint, schemaDefinition });
  const [updated] = await db
    .update(plugins)
    .set({
      entryPoint,
      schemaDefinition,
      secretFindings: findings.length ? findings : null,
      updatedAt: new Date(),
    })
    .where(eq(plugins.id, row.id))
    .returning();
  return toEntry(env, user, updated);
}

export async function deletePlugin(db: Database, env: Env, user: User, id: string): Promise<void> {
  const row = await editableRow(db, env, user, id);
  await db.delete(plugins).where(eq(plugins.id, row.id));
}

/** The signed-in user's notices not yet dismissed, newest first. */
export async function listPluginNotices(
  db: Database,
  user: User,
  query: PluginNoticeQuery,
): Promise<Paged<PluginNotice>> {
  const mine = and(
    eq(pluginNotices.accountId, user.nearAccountId.toLowerCase()),
    isNull(pluginNotices.dismissedAt),
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(pluginNotices)
      .where(mine)
      .orderBy(desc(pluginNotices.createdAt), desc(pluginNotices.id))
      .limit(query.limit)
      .offset(query.page * query.limit),
    db.select({ total: count() }).from(pluginNotices).where(mine),
  ]);
  return {
    items: rows.map((row) => ({
      id: String(row.id),
      kind: row.kind,
      message: pluginNoticeMessage({ ...row.data, kind: row.kind }),
      oldName: row.data.oldName,
      newName: row.data.newName,
      pluginId: row.pluginId === null ? null : String(row.pluginId),
      feedIds: row.data.feedIds,
      createdAt: row.createdAt.toISOString(),
    })),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: (query.page + 1) * query.limit < total,
      totalCount: total,
    },
  };
}

/** Hides one of the signed-in user's notices; someone else's, or one already dismissed, is not found. */
export async function dismissPluginNotice(db: Database, user: User, id: string): Promise<void> {
  const dismissed = /^\d{1,9}$/.test(id)
    ? await db
        .update(pluginNotices)
        .set({ dismissedAt: new Date() })
        .where(
          and(
            eq(pluginNotices.id, Number(id)),
            eq(pluginNotices.accountId, user.nearAccountId.toLowerCase()),
            isNull(pluginNotices.dismissedAt),
          ),
        )
        .returning({ id: pluginNotices.id })
    : [];
  if (dismissed.length === 0) throw AppError.notFound(`Notice "${id}" not found.`);
}
