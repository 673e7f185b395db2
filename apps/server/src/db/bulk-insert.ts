import { type Column, getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * `insert into <table> (<columns>) select * from unnest($1::<type>[], $2::<type>[], …)`: many rows as one array per
 * column, for the hot batch writes (intake's posts, links and activities, the moderation log's entries). The query
 * builder's multi-row insert binds one parameter per value and pays tens of microseconds of JavaScript for each;
 * this binds one per column whatever the number of rows, and the database parses a statement of constant size.
 *
 * Columns are those the rows give (every row the same ones); a column left out takes its database default, as in
 * the builder. Values go through each column's own mapping (JSON, dates). Columns of array type cannot travel in an
 * array parameter (`unnest` would flatten them) and are refused, as are omitted columns whose default is computed
 * in JavaScript (the builder would fill them; the database cannot).
 */
export function bulkInsert<TTable extends PgTable>(
  table: TTable,
  rows: ReadonlyArray<TTable["$inferInsert"]>,
): SQL {
  if (rows.length === 0) throw new Error("bulkInsert needs at least one row");
  const byKey = getTableColumns(table) as Record<string, Column>;
  const keys = Object.keys(byKey).filter((key) => (rows[0] as Record<string, unknown>)[key] !== undefined);
  for (const [index, row] of rows.entries()) {
    const extra = Object.keys(byKey).find(
      (key) => !keys.includes(key) && (row as Record<string, unknown>)[key] !== undefined,
    );
    if (extra) {
      throw new Error(
        `bulkInsert: row ${index} of ${getTableName(table)} gives ${byKey[extra].name}, row 0 does not`,
      );
    }
  }
  for (const [key, column] of Object.entries(byKey)) {
    if (!keys.includes(key) && (column.defaultFn || column.onUpdateFn)) {
      throw new Error(
        `bulkInsert: ${getTableName(table)}.${column.name} has a default computed in JavaScript`,
      );
    }
  }
  const arrays = keys.map((key) => {
    const column = byKey[key];
    const type = column.getSQLType();
    if (type.endsWith("]"))
      throw new Error(`bulkInsert: ${getTableName(table)}.${column.name} is an array column`);
    const values = rows.map((row, index) => {
      const value = (row as Record<string, unknown>)[key];
      if (value === undefined) {
        throw new Error(`bulkInsert: row ${index} of ${getTableName(table)} leaves out ${column.name}`);
      }
      return value === null ? null : column.mapToDriverValue(value);
    });
    // JSON goes as its text: the drivers would otherwise write an object inside an array as a record.
    const wire = type === "jsonb" || type === "json" ? values.map(jsonText) : values.map(scalarText);
    // One parameter holding the whole array (an array interpolated bare would be spread into a list).
    return sql`${sql.param(wire)}::${sql.raw(type)}[]`;
  });
  return sql`insert into ${table} (${sql.join(
    keys.map((key) => sql.identifier(byKey[key].name)),
    sql`, `,
  )}) select * from unnest(${sql.join(arrays, sql`, `)})`;
}

const jsonText = (value: unknown) =>
  value === null ? null : typeof value === "string" ? value : JSON.stringify(value);

/** Dates as ISO text and everything else as given: what both drivers write into an array literal unchanged. */
const scalarText = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
