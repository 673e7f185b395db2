import { type SupabaseDistributorConfig, supabaseDistributorConfigSchema } from "@curate/core";
import { createClient, type PostgrestError } from "@supabase/supabase-js";
import { BlockedUrlError, checkOutboundUrl, outboundFetch } from "../../clients/outbound.ts";
import { valueAt } from "../templates.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type RetractionOutcome,
} from "../types.ts";

export interface SupabaseSettings {
  /** Hosts a project URL may be on although they are not public (`PRIVATE_HOSTS_ALLOWED`). */
  allowedHosts: readonly string[];
}

/** The row this distributor inserts, and where. */
export interface SupabaseInsert {
  schema: string;
  table: string;
  row: Record<string, unknown>;
  /** The unique column that holds the publication's key: a row already there is the publication's. */
  onConflict?: string;
  /** A replay: the row's key column, whose earlier row this one replaces (an upsert that merges). */
  replaceOn?: string;
}

type Row = Record<string, unknown>;

/** The row: each configured column's input value, or else the input's own top-level fields. */
function rowOf(input: unknown, config: SupabaseDistributorConfig): Row {
  if (config.columns) {
    return Object.fromEntries(
      Object.entries(config.columns).flatMap(([column, path]) => {
        const value = valueAt(input, path);
        return value === undefined ? [] : [[column, value]];
      }),
    );
  }
  if (input && typeof input === "object" && !Array.isArray(input)) return { ...(input as Row) };
  throw new PluginError(
    "The input is not an object, so it has no fields to insert: map it to columns with columns.",
    {
      code: "SUPABASE_NO_COLUMNS",
    },
  );
}

/** PostgREST's answers (and Supabase's gateway's) as step errors that say what to fix. */
function stepError(error: PostgrestError, status: number, insert: SupabaseInsert): PluginError {
  const table = `${insert.schema}.${insert.table}`;
  const said = [error.code, error.message].filter(Boolean).join(": ");
  const more = [error.details, error.hint].filter(Boolean).join(" ");
  const full = `${said}${more ? ` (${more})` : ""}`;
  if (status === 0) {
    return new PluginError("The Supabase project could not be reached.", {
      code: "SUPABASE_UNREACHABLE",
      retryable: true,
    });
  }
  if (status >= 300 && status < 400) {
    return new PluginError(
      `The project URL redirects (${status}): set url to the project's own URL (https://<ref>.supabase.co).`,
      {
        code: "SUPABASE_REDIRECTED",
      },
    );
  }
  if (status === 401 || error.code === "PGRST301" || error.code === "PGRST302") {
    return new PluginError(`Supabase refused the key (${full}): check the feed secret behind key.`, {
      code: CREDENTIALS_REJECTED,
    });
  }
  if (status === 403 || error.code === "42501") {
    return new PluginError(
      `The key may not insert into ${table} (${full}): use the service role key, or grant insert and select and add row-level security policies that allow them.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (error.code === "PGRST205" || error.code === "42P01") {
    return new PluginError(`The project has no table ${table} (${full}): check table and schema.`, {
      code: "SUPABASE_TABLE_NOT_FOUND",
    });
  }
  if (error.code === "PGRST106") {
    return new PluginError(
      `The schema ${insert.schema} is not exposed (${full}): add it to the project's exposed schemas, or set schema.`,
      {
        code: "SUPABASE_TABLE_NOT_FOUND",
      },
    );
  }
  if (error.code === "PGRST204" || error.code === "42703") {
    return new PluginError(`${table} has no such column (${full}): check columns.`, {
      code: "SUPABASE_COLUMN_NOT_FOUND",
    });
  }
  if (error.code === "23505") {
    return new PluginError(`${table} already has a row with this unique value (${full}).`, {
      code: "SUPABASE_DUPLICATE",
    });
  }
  if (status === 429 || status >= 500) {
    return new PluginError(`Supabase failed (${status}${said ? `: ${said}` : ""}).`, {
      code: "SUPABASE_UNAVAILABLE",
      retryable: true,
    });
  }
  return new PluginError(
    `Supabase refused the row (${full || status}): check columns and the table's constraints.`,
    {
      code: "SUPABASE_REJECTED",
    },
  );
}

function clientFor(
  url: URL,
  key: string,
  schema: string,
  allowedHosts: readonly string[],
  context: PluginContext,
) {
  const guarded = outboundFetch(allowedHosts);
  return createClient(url.href.replace(/\/+$/, ""), key, {
    db: { schema },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: (input, init) => guarded(input, { ...init, signal: init?.signal ?? context.signal }) },
  });
}

/**
 * A row in a Supabase table (supabase-js: PostgREST over the project's URL). The URL is the feed's choice, so the
 * key is a feed secret and the URL must be on a public address. With `idempotencyColumn` (a unique column), the
 * row carries the publication's key and a retry finds it instead of inserting again; without it a retry after a
 * lost answer may insert twice.
 */
export function createSupabaseDistributor(
  settings: SupabaseSettings,
): DistributorPlugin<SupabaseDistributorConfig> {
  return {
    type: "distributor",
    name: "supabase",
    configSchema: supabaseDistributorConfigSchema,
    throttle: (config) => [{ key: `project:${new URL(config.url).host}`, intervalMs: 100 }],
    async render(input, config, context) {
      const row = rowOf(input, config);
      if (config.idempotencyColumn && context.idempotencyKey)
        row[config.idempotencyColumn] = context.idempotencyKey;
      if (Object.keys(row).length === 0) {
        throw new PluginError(
          "None of the mapped fields has a value in this item: check columns against the input.",
          {
            code: "SUPABASE_EMPTY_ROW",
          },
        );
      }
      const insert: SupabaseInsert = {
        schema: config.schema ?? "public",
        table: config.table,
        row,
        ...(config.idempotencyColumn && context.idempotencyKey
          ? { onConflict: config.idempotencyColumn }
          : {}),
      };
      const replace = context.replay ? supabaseReplaceOf(insert, config, context.replay.receipt) : null;
      if (replace) return { action: "upsert (replace the earlier row)", request: replace, edits: true };
      return { action: insert.onConflict ? "upsert (ignore duplicates)" : "insert", request: insert };
    },
    async send(rendered, config, context) {
      const insert = rendered.request as SupabaseInsert;
      let url: URL;
      try {
        url = await checkOutboundUrl(config.url, settings.allowedHosts);
      } catch (error) {
        if (error instanceof BlockedUrlError)
          throw new PluginError(error.message, { code: "SUPABASE_URL_REFUSED" });
        throw error;
      }
      const table = clientFor(url, config.key, insert.schema, settings.allowedHosts, context).from(
        insert.table,
      );
      if (insert.replaceOn) return sendSupabaseReplace(table, insert, config);
      const written = insert.onConflict
        ? await table.upsert(insert.row, { onConflict: insert.onConflict, ignoreDuplicates: true }).select()
        : await table.insert(insert.row).select();
      if (written.error) throw stepError(written.error, written.status, insert);
      let row = written.data?.[0] as Row | undefined;
      let existing = false;
      if (!row && insert.onConflict) {
        const found = await table
          .select()
          .eq(insert.onConflict, insert.row[insert.onConflict])
          .limit(1)
          .retry(false);
        if (found.error) throw stepError(found.error, found.status, insert);
        row = found.data?.[0] as Row | undefined;
        existing = true;
      }
      const id = row?.[config.idColumn ?? "id"];
      return {
        ...(existing ? { existing } : {}),
        row: row ?? null,
        reference: {
          kind: "supabase-row",
          ...(id === undefined || id === null ? {} : { id: String(id) }),
        },
      };
    },
    retract: (receipt, config, context) => retractSupabaseRow(settings, receipt, config, context),
  };
}

// --- Replays (decision 0015): a replay upserts the row the branch inserted before (same key), replacing it. ---

function supabaseReplaceOf(
  insert: SupabaseInsert,
  config: SupabaseDistributorConfig,
  receipt: DistributionReceipt,
): SupabaseInsert | null {
  const column = config.idColumn ?? "id";
  const earlier = (receipt.row as Row | null | undefined)?.[column] ?? receipt.reference?.id;
  if (earlier === undefined || earlier === null) return null;
  const { onConflict: _onConflict, ...rest } = insert;
  return { ...rest, row: { ...insert.row, [column]: earlier }, replaceOn: column };
}

async function sendSupabaseReplace(
  table: ReturnType<ReturnType<typeof clientFor>["from"]>,
  insert: SupabaseInsert,
  config: SupabaseDistributorConfig,
): Promise<DistributionReceipt> {
  const written = await table.upsert(insert.row, { onConflict: insert.replaceOn }).select();
  if (written.error) throw stepError(written.error, written.status, insert);
  const row = (written.data?.[0] as Row | undefined) ?? null;
  const id = row?.[config.idColumn ?? "id"] ?? insert.row[insert.replaceOn as string];
  return {
    replaced: true,
    row,
    reference: { kind: "supabase-row", ...(id === undefined || id === null ? {} : { id: String(id) }) },
  };
}

/**
 * Retraction: deletes the row the send wrote, found by its id column (or by the publication's key in
 * `idempotencyColumn` when the id did not come back). A row already deleted counts as retracted.
 */
export async function retractSupabaseRow(
  settings: SupabaseSettings,
  receipt: DistributionReceipt,
  config: SupabaseDistributorConfig,
  context: PluginContext,
): Promise<RetractionOutcome> {
  const written = (receipt.row ?? null) as Row | null;
  const idColumn = config.idColumn ?? "id";
  const byId = receipt.reference?.id ?? written?.[idColumn];
  const byKey = config.idempotencyColumn ? written?.[config.idempotencyColumn] : undefined;
  const [column, value] =
    byId !== undefined && byId !== null
      ? [idColumn, String(byId)]
      : byKey !== undefined && byKey !== null && config.idempotencyColumn
        ? [config.idempotencyColumn, String(byKey)]
        : [null, null];
  if (!column || value === null) {
    return {
      retracted: false,
      reason: `The insert did not return the row's ${idColumn}, so the row cannot be found to delete.`,
    };
  }
  let url: URL;
  try {
    url = await checkOutboundUrl(config.url, settings.allowedHosts);
  } catch (error) {
    if (error instanceof BlockedUrlError)
      throw new PluginError(error.message, { code: "SUPABASE_URL_REFUSED" });
    throw error;
  }
  const target = { schema: config.schema ?? "public", table: config.table, row: {} };
  const table = clientFor(url, config.key, target.schema, settings.allowedHosts, context).from(target.table);
  const deleted = await table.delete().eq(column, value).select();
  if (deleted.error) throw stepError(deleted.error, deleted.status, target);
  const count = deleted.data?.length ?? 0;
  return count > 0
    ? { retracted: true, [column]: value }
    : { retracted: true, alreadyGone: true, [column]: value };
}
