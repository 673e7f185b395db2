import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Supabase project's REST API (PostgREST behind the gateway at `{url}/rest/v1/{table}`): inserts (with
 * `Prefer: return=representation` and `resolution=ignore-duplicates` + `on_conflict`) and `eq` selects on tables
 * it holds in memory. Keys are checked as the gateway checks them (`apikey` and `Authorization: Bearer`), and
 * refusals come in PostgREST's shape `{ code, message, details, hint }` with its statuses.
 */

export interface FakeTable {
  name: string;
  schema?: string;
  columns: string[];
  /** Columns with a unique constraint. */
  unique?: string[];
}

const postgrestError = (
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
): FakeAnswer => ({ status, body: { code, details, hint, message } });

export async function startFakeSupabase(options: {
  /** Keys allowed to insert and read back (the service role). */
  serviceKey: string;
  /** Keys the gateway knows but whose role may not write (anon without an insert policy). */
  readOnlyKeys?: string[];
  tables: FakeTable[];
}) {
  const rows = new Map<string, Array<Record<string, unknown>>>(
    options.tables.map((t) => [`${t.schema ?? "public"}.${t.name}`, []]),
  );
  const queue = answerQueue();
  let nextId = 1;
  const merged: Array<Record<string, unknown>> = [];

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const key = String(request.headers.apikey ?? "");
    const known = key === options.serviceKey || (options.readOnlyKeys ?? []).includes(key);
    if (!known || request.headers.authorization !== `Bearer ${key}`) {
      return {
        status: 401,
        body: {
          message: "Invalid API key",
          hint: "Double check your Supabase `anon` or `service_role` API key.",
        },
      };
    }
    const queued = queue.next();
    if (queued) return queued;
    const match = /^\/rest\/v1\/(\w+)$/.exec(request.path);
    if (!match) return { status: 404, body: { message: "no Route matched with those values" } };
    const schema = String(
      request.headers[request.method === "GET" ? "accept-profile" : "content-profile"] ?? "public",
    );
    const table = options.tables.find((t) => t.name === match[1] && (t.schema ?? "public") === schema);
    if (!table) {
      return postgrestError(
        404,
        "PGRST205",
        `Could not find the table '${schema}.${match[1]}' in the schema cache`,
      );
    }
    const stored = rows.get(`${schema}.${table.name}`) ?? [];
    if (request.method === "GET") {
      let found = stored;
      for (const [column, condition] of request.query) {
        if (column === "select" || column === "limit") continue;
        const value = condition.replace(/^eq\./, "");
        found = found.filter((row) => String(row[column]) === value);
      }
      const limit = Number(request.query.get("limit") ?? found.length);
      return { status: 200, body: found.slice(0, limit) };
    }
    if (request.method === "DELETE") {
      // PostgREST refuses a DELETE without a filter; `eq` filters pick the rows, which come back on return=representation.
      const filters = [...request.query].filter(([column]) => column !== "select");
      if (filters.length === 0) {
        return postgrestError(400, "21000", "DELETE requires a WHERE clause");
      }
      if (key !== options.serviceKey) return { status: 204 };
      const gone = stored.filter((row) =>
        filters.every(([column, condition]) => String(row[column]) === condition.replace(/^eq\./, "")),
      );
      for (const row of gone) stored.splice(stored.indexOf(row), 1);
      const prefer = String(request.headers.prefer ?? "");
      return prefer.includes("return=representation") ? { status: 200, body: gone } : { status: 204 };
    }
    if (request.method !== "POST") return postgrestError(405, "PGRST117", "Unsupported HTTP method");
    if (key !== options.serviceKey) {
      return postgrestError(
        403,
        "42501",
        `new row violates row-level security policy for table "${table.name}"`,
      );
    }
    const row = request.body;
    if (!row || typeof row !== "object" || Array.isArray(row))
      return postgrestError(400, "PGRST102", "Empty or invalid json");
    for (const column of Object.keys(row)) {
      if (!table.columns.includes(column)) {
        return postgrestError(
          400,
          "PGRST204",
          `Could not find the '${column}' column of '${table.name}' in the schema cache`,
        );
      }
    }
    const prefer = String(request.headers.prefer ?? "");
    const onConflict = request.query.get("on_conflict");
    if (prefer.includes("resolution=merge-duplicates") && onConflict) {
      // An upsert: the row with the same value in the conflict column is updated with the sent values.
      const existing = stored.find((candidate) => String(candidate[onConflict]) === String(row[onConflict]));
      if (existing) {
        Object.assign(existing, row);
        merged.push({ ...existing });
        return prefer.includes("return=representation") ? { status: 200, body: [existing] } : { status: 200 };
      }
    }
    for (const column of table.unique ?? []) {
      if (row[column] === undefined) continue;
      const clash = stored.find((existing) => existing[column] === row[column]);
      if (!clash) continue;
      if (prefer.includes("resolution=ignore-duplicates") && request.query.get("on_conflict") === column) {
        return { status: 201, body: [] };
      }
      return postgrestError(
        409,
        "23505",
        `duplicate key value violates unique constraint "${table.name}_${column}_key"`,
        `Key (${column})=(${String(row[column])}) already exists.`,
      );
    }
    const saved = { ...Object.fromEntries(table.columns.map((c) => [c, null])), id: nextId++, ...row };
    stored.push(saved);
    return prefer.includes("return=representation") ? { status: 201, body: [saved] } : { status: 201 };
  };

  const server = await startFakeServer(handle);
  return {
    url: server.url,
    port: server.port,
    requests: server.requests,
    rows: (table: string, schema = "public") => rows.get(`${schema}.${table}`) ?? [],
    /** Rows an upsert (merge-duplicates) updated, as they were after it. */
    merged,
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      for (const list of rows.values()) list.length = 0;
      nextId = 1;
      merged.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
