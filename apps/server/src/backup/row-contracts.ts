import {
  activitySchema,
  apiTokenSchema,
  feedSchema,
  feedVersionDetailSchema,
  feedVersionSchema,
  pluginSchema,
  submissionSchema,
} from "@curate/core";
import { is } from "drizzle-orm";
import { getTableConfig, type PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { schema } from "../db/index.ts";

/**
 * What the app expects a row's JSON document to hold, beyond its column's type: the same core contracts its API
 * answers with. A feed config's history is held only to being an object: an old version need not be valid today
 * (a restore checks it then).
 */
const DOCUMENT_CONTRACTS: Record<string, Record<string, z.ZodType>> = {
  feeds: { config: feedSchema.shape.config, admins: feedSchema.shape.admins },
  submissions: { media: submissionSchema.shape.media },
  activities: { data: activitySchema.shape.data, metadata: activitySchema.shape.metadata },
  plugins: { schema_definition: pluginSchema.shape.schemaDefinition },
  api_tokens: { scopes: apiTokenSchema.shape.scopes },
  feed_config_versions: {
    config: feedVersionDetailSchema.shape.config,
    changes: feedVersionSchema.shape.changes,
  },
};

const INT4 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
// How row_to_json writes them: ISO 8601 with the session's offset (to the second for historic zones), or ±infinity.
const TIMESTAMP_TZ = /^(-?infinity|\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d){0,2}( BC)?)$/;
const TIMESTAMP = /^(-?infinity|\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?( BC)?)$/;
const DATE = /^(-?infinity|\d{4,}-\d\d-\d\d( BC)?)$/;

/** The value's problems: a message, or messages at paths inside a JSON document. */
type ValueCheck = (value: unknown) => string | Array<{ path: string; message: string }> | null;

/** Issues listed per JSON document: one broken config should not fill the whole report. */
const ISSUES_PER_DOCUMENT = 3;

function columnCheck(table: string, column: PgColumn): ValueCheck {
  const enumValues = column.enumValues?.length ? new Set(column.enumValues) : null;
  switch (column.columnType) {
    case "PgText":
      return (value) => {
        if (typeof value !== "string") return "is not text";
        if (enumValues && !enumValues.has(value)) return `is none of ${[...enumValues].join(", ")}`;
        return null;
      };
    case "PgInteger":
    case "PgSerial":
      return (value) =>
        Number.isInteger(value) && (value as number) >= INT4.min && (value as number) <= INT4.max
          ? null
          : "is not a 32-bit integer";
    case "PgBigInt53":
    case "PgBigSerial53":
      return (value) => (Number.isInteger(value) ? null : "is not an integer");
    case "PgDoublePrecision":
      return (value) => (typeof value === "number" && Number.isFinite(value) ? null : "is not a number");
    case "PgBoolean":
      return (value) => (typeof value === "boolean" ? null : "is not true or false");
    case "PgTimestamp": {
      const pattern = (column as unknown as { withTimezone: boolean }).withTimezone
        ? TIMESTAMP_TZ
        : TIMESTAMP;
      return (value) => (typeof value === "string" && pattern.test(value) ? null : "is not a timestamp");
    }
    case "PgDateString":
    case "PgDate":
      return (value) => (typeof value === "string" && DATE.test(value) ? null : "is not a date");
    case "PgJsonb": {
      const contract = DOCUMENT_CONTRACTS[table]?.[column.name];
      if (!contract) return () => null;
      return (value) => {
        const parsed = contract.safeParse(value);
        if (parsed.success) return null;
        const { issues } = parsed.error;
        const listed = issues
          .slice(0, ISSUES_PER_DOCUMENT)
          .map((issue) => ({ path: issue.path.join("."), message: issue.message }));
        if (issues.length > ISSUES_PER_DOCUMENT) {
          listed.push({ path: "", message: `and ${issues.length - ISSUES_PER_DOCUMENT} more problems` });
        }
        return listed;
      };
    }
    default:
      // A column type added to the schema must be taught here before an archive holding it can be trusted.
      throw new Error(`the import does not know how to check ${table}.${column.name} (${column.columnType})`);
  }
}

export interface RowProblem {
  /** The column (or, inside a JSON document, `column.path`) at fault; absent when the row itself is. */
  field?: string;
  message: string;
}

export interface TableContract {
  /** The row's key as the report names it, e.g. `id "tech"`. */
  describeKey(row: Record<string, unknown>): string;
  problems(row: unknown): RowProblem[];
}

function contractFor(table: PgTable, present: ReadonlySet<string> | undefined): TableContract {
  const config = getTableConfig(table);
  // The target's own columns decide which are expected: it is at the archive's migration, which may lack columns
  // this code knows, or hold ones it dropped since (those are left to the database to check).
  const columns = config.columns
    .filter((column) => !present || present.has(column.name))
    .map((column) => ({
      name: column.name,
      notNull: column.notNull,
      check: columnCheck(config.name, column),
    }));
  const known = present ?? new Set(columns.map((column) => column.name));
  const keyColumns =
    config.primaryKeys[0]?.columns.map((c) => c.name) ??
    config.columns.filter((c) => c.primary).map((c) => c.name);
  return {
    describeKey(row) {
      return keyColumns
        .map((name) => {
          const text = JSON.stringify(row[name]) ?? "none";
          return `${name} ${text.length > 80 ? `${text.slice(0, 77)}…` : text}`;
        })
        .join(", ");
    },
    problems(row) {
      if (typeof row !== "object" || row === null || Array.isArray(row)) {
        return [{ message: "is not an object of columns" }];
      }
      const values = row as Record<string, unknown>;
      const found: RowProblem[] = [];
      for (const field of Object.keys(values)) {
        if (!known.has(field)) found.push({ field, message: "is not a column of this table" });
      }
      for (const column of columns) {
        if (!(column.name in values)) {
          found.push({ field: column.name, message: "is missing" });
          continue;
        }
        const value = values[column.name];
        if (value === null) {
          if (column.notNull) found.push({ field: column.name, message: "is empty (null) but required" });
          continue;
        }
        const problem = column.check(value);
        if (typeof problem === "string") found.push({ field: column.name, message: problem });
        for (const issue of Array.isArray(problem) ? problem : []) {
          found.push({
            field: issue.path ? `${column.name}.${issue.path}` : column.name,
            message: issue.message,
          });
        }
      }
      return found;
    },
  };
}

/**
 * Each of the app's tables by name, with what its rows must hold to be imported into a database whose tables have
 * the columns `present` lists (all of today's schema when absent).
 */
export function tableContracts(
  present?: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, TableContract> {
  return new Map(
    (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .filter((table) => !present || present.has(getTableConfig(table).name))
      .map((table) => {
        const name = getTableConfig(table).name;
        return [name, contractFor(table, present?.get(name))];
      }),
  );
}
