import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { migrateTo, migrationsBefore } from "../../test/migrations.ts";
import { MIGRATIONS_FOLDER } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

/**
 * The migration that turns stored upload addresses into paths, over rows as the code before it wrote them: the
 * database is migrated up to the migration before, filled, then migrated to the end, on the driver under test.
 */
const work = mkdtempSync(join(tmpdir(), "curate-upload-paths-"));
let scratch: ScratchDatabase;

const HASH = "a".repeat(64);
const OTHER = "b".repeat(64);
const ours = `http://localhost:3000/uploads/${HASH}.png`;
/** An image another Curate server hosts: not an upload of this installation, so it stays an address. */
const theirs = `https://elsewhere.example/uploads/${OTHER}.png`;

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  scratch = await openScratchDatabase(url ? "postgres" : "pglite", url ? { adminUrl: url } : {});
  const { db } = scratch.handle;
  await migrateTo(scratch.handle, migrationsBefore(work, "_relative_upload_paths"));
  await db.execute(sql`insert into uploads (hash, mime_type, size, extension, created_by)
    values (${HASH}, 'image/png', 68, 'png', 'owner.near')`);
  for (const [id, image] of [
    ["ours", ours],
    ["theirs", theirs],
    ["plain", "https://cdn.example.com/logo.png"],
  ]) {
    const config = { id, name: id, description: `About ${id}`, image };
    await db.execute(sql`insert into feeds (id, name, description, image, created_by, config)
      values (${id}, ${id}, ${`About ${id}`}, ${image}, 'owner.near', ${JSON.stringify(config)}::jsonb)`);
    await db.execute(sql`insert into feed_config_versions (feed_id, version, config, kind)
      values (${id}, 1, ${JSON.stringify(config)}::jsonb, 'created')`);
  }
  await db.execute(sql`insert into users (near_account_id, profile_image) values ('owner.near', ${ours})`);
  await migrateTo(scratch.handle, MIGRATIONS_FOLDER);
});

afterAll(async () => {
  await scratch?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("stored upload addresses become paths", () => {
  it("rewrites this installation's uploads in feeds, their config, their history and profiles; nothing else", async () => {
    const rows = await queryRows<{ id: string; image: string; config: string; version: string }>(
      scratch.handle.db,
      sql`select f.id, f.image, f.config->>'image' as config, v.config->>'image' as version
        from feeds f join feed_config_versions v on v.feed_id = f.id order by f.id`,
    );
    const path = `/uploads/${HASH}.png`;
    expect(rows).toEqual([
      { id: "ours", image: path, config: path, version: path },
      {
        id: "plain",
        image: "https://cdn.example.com/logo.png",
        config: "https://cdn.example.com/logo.png",
        version: "https://cdn.example.com/logo.png",
      },
      { id: "theirs", image: theirs, config: theirs, version: theirs },
    ]);
    const [user] = await queryRows<{ image: string }>(
      scratch.handle.db,
      sql`select profile_image as image from users where near_account_id = 'owner.near'`,
    );
    expect(user.image).toBe(path);
  });
});
