import { PGlite } from "@electric-sql/pglite";

const db = new PGlite("/tmp/fresh1/pglite");
console.log((await db.query("select status, count(*)::int from processing_jobs group by status")).rows);
console.log((await db.query("select count(*)::int as rss from rss_items")).rows);
console.log(
  (
    await db.query(
      "select s.error->>'code' as code, count(*)::int from processing_steps s where status='failed' group by 1",
    )
  ).rows,
);
console.log((await db.query("select name, state, count(*)::int from pgboss.job group by 1,2")).rows);
