import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScratchDatabase } from "../../test/databases.ts";
import { insertFeed, insertPendingPosts } from "../../test/factories.ts";
import { freshDatabase } from "../../test/harness.ts";
import { png } from "../../test/images.ts";
import { queryRows } from "../db/sql.ts";
import { getFeed } from "../feeds/service.ts";
import { storeUpload } from "../uploads/service.ts";
import { ArchiveError, exportArchive, type ImportOptions, importArchive } from "./archive.ts";
import { archiveLines, endOf, folderState, tableContents, writeArchive } from "./archive-testing.ts";

/**
 * An import either restores the whole archive or changes nothing: every check runs before the commit, uploads
 * wait in a staging folder until then, and a refusal names what is wrong by table, row and field. A small
 * installation (two feeds, 25 posts, one uploaded image) is exported once; each case imports a tampered copy into
 * the same empty database, which must stay empty, beside an uploads folder that must keep exactly its one file.
 */
type Line = Record<string, unknown>;
type Row = Record<string, unknown>;

const work = mkdtempSync(join(tmpdir(), "curate-archive-refusals-"));
const archive = join(work, "small.curate.gz");
const dataDir = join(work, "data");
const uploadsDir = join(dataDir, "uploads");
let target: ScratchDatabase;
let emptyTarget: Record<string, string[]>;
let original: Line[];

const rowsOf = (lines: Line[], table: string) =>
  lines.filter((line) => line.table === table).flatMap((line) => line.rows as Row[]);
const uploadLine = (lines: Line[]) => lines.find((line) => "upload" in line) as Line & { data: string };

beforeAll(async () => {
  const source = await freshDatabase();
  try {
    const db = source.handle.db;
    await insertFeed(db, { id: "alpha" });
    await insertFeed(db, { id: "beta" });
    await insertPendingPosts(db, "alpha", 25);
    const sourceUploads = join(work, "source-uploads");
    await storeUpload(db, { uploadsDir: sourceUploads, bytesPerDay: 1_000_000 }, png(7), "amy.near");
    await exportArchive(db, sourceUploads, archive);
  } finally {
    await source.dispose();
  }
  original = archiveLines(archive);
  target = await freshDatabase();
  emptyTarget = await tableContents(target.handle.db);
  mkdirSync(uploadsDir, { recursive: true });
  writeFileSync(join(uploadsDir, "already-here.txt"), "an upload of the installation being restored into");
});

afterAll(async () => {
  await target?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** Imports `lines` as an archive; it must be refused, leaving the database and the uploads folder as they were. */
async function expectRefused(lines: Line[], options: ImportOptions = {}): Promise<string> {
  const tampered = join(work, "tampered.curate.gz");
  writeArchive(tampered, lines);
  const folderBefore = folderState(uploadsDir);
  const error = await importArchive(target.handle.db, uploadsDir, tampered, options).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ArchiveError);
  expect(await tableContents(target.handle.db)).toEqual(emptyTarget);
  expect(folderState(uploadsDir)).toEqual(folderBefore);
  expect(folderBefore.files).toEqual({ "already-here.txt": expect.any(String) });
  expect(folderBefore.staging).toEqual([]);
  return (error as ArchiveError).message;
}

/** The archive's lines with `edit` applied to a deep copy. */
function tamper(edit: (lines: Line[]) => void): Line[] {
  const lines = structuredClone(original);
  edit(lines);
  return lines;
}

describe("a tampered archive is refused, and nothing is written", () => {
  it("the summary lists one upload more than the archive holds", async () => {
    const message = await expectRefused(tamper((lines) => endOf(lines).uploads++));
    expect(message).toContain("Nothing was imported");
    expect(message).toContain("uploads:\n  - The archive lists 2 uploads but holds 1.");
  });

  it("an upload is left out", async () => {
    const message = await expectRefused(tamper((lines) => lines.splice(lines.indexOf(uploadLine(lines)), 1)));
    expect(message).toContain("The archive lists 1 uploads but holds 0.");
    expect(message).toMatch(/[0-9a-f]{64}\.png: the uploads table lists it, the archive does not hold it\./);
  });

  it("an upload is left out and the summary changed to agree", async () => {
    const message = await expectRefused(
      tamper((lines) => {
        lines.splice(lines.indexOf(uploadLine(lines)), 1);
        endOf(lines).uploads--;
      }),
    );
    expect(message).toMatch(/[0-9a-f]{64}\.png: the uploads table lists it, the archive does not hold it\./);
  });

  it("an upload's bytes are changed", async () => {
    const changed = (data: string) => {
      const bytes = Buffer.from(data, "base64");
      bytes[bytes.length - 1] ^= 0xff;
      return bytes.toString("base64");
    };
    let message = await expectRefused(
      tamper((lines) => {
        const upload = uploadLine(lines);
        upload.data = changed(upload.data);
      }),
    );
    expect(message).toMatch(/[0-9a-f]{64}\.png: its bytes do not match its SHA-256/);
    // Reported once, as what it is: the upload is there, only wrong.
    expect(message).not.toContain("does not hold it");
    expect(message).not.toContain("but holds");
    // An archive from before uploads carried their hash: the name, which is the hash, still tells.
    message = await expectRefused(
      tamper((lines) => {
        const upload = uploadLine(lines);
        upload.data = changed(upload.data);
        delete upload.sha256;
        delete upload.size;
      }),
    );
    expect(message).toMatch(/[0-9a-f]{64}\.png: its bytes do not match the hash in its name/);
  });

  it("an upload disagrees with the uploads table, or is not base64", async () => {
    let message = await expectRefused(
      tamper((lines) => {
        (rowsOf(lines, "uploads")[0].size as number)++;
      }),
    );
    expect(message).toMatch(/[0-9a-f]{64}\.png: its size differs from the uploads table's\./);
    message = await expectRefused(
      tamper((lines) => {
        uploadLine(lines).data = "not base64!";
      }),
    );
    expect(message).toMatch(/[0-9a-f]{64}\.png: its data is not base64/);
  });

  it("a table's rows disagree with the summary's count", async () => {
    const message = await expectRefused(tamper((lines) => endOf(lines).tables.submissions++));
    expect(message).toContain(
      "row counts:\n  - submissions: the archive holds 25 rows, its summary lists 26.",
    );
  });

  it("a feed's config breaks today's contract, named by table, row and field", async () => {
    const message = await expectRefused(
      tamper((lines) => {
        const [feed] = rowsOf(lines, "feeds");
        (feed.config as { outputs: { stream: { enabled: unknown } } }).outputs.stream.enabled = "yes";
        feed.surplus = 1;
      }),
    );
    const [feed] = rowsOf(original, "feeds");
    expect(message).toContain("rows meet today's contracts:");
    expect(message).toContain(
      `feeds row 1 (id "${feed.id}"), config.outputs.stream.enabled: Invalid input: expected boolean, received string`,
    );
    expect(message).toContain(`feeds row 1 (id "${feed.id}"), surplus: is not a column of this table`);
  });

  it("columns hold what their types cannot", async () => {
    const message = await expectRefused(
      tamper((lines) => {
        const posts = rowsOf(lines, "submissions");
        posts[1].status = "maybe";
        posts[2].created_at = "yesterday";
        posts[3].user_id = 42;
        delete posts[4].content;
        posts[5].username = null;
      }),
    );
    const posts = rowsOf(original, "submissions");
    expect(message).toContain(
      `submissions row 2 (tweet_id "${posts[1].tweet_id}"), status: is none of pending, approved, rejected`,
    );
    expect(message).toContain(
      `submissions row 3 (tweet_id "${posts[2].tweet_id}"), created_at: is not a timestamp`,
    );
    expect(message).toContain(`submissions row 4 (tweet_id "${posts[3].tweet_id}"), user_id: is not text`);
    expect(message).toContain(`submissions row 5 (tweet_id "${posts[4].tweet_id}"), content: is missing`);
    expect(message).toContain(
      `submissions row 6 (tweet_id "${posts[5].tweet_id}"), username: is empty (null) but required`,
    );
  });

  it("many bad rows: the report lists twenty and counts the rest", async () => {
    const message = await expectRefused(
      tamper((lines) => {
        for (const post of rowsOf(lines, "submissions")) post.status = "maybe";
      }),
    );
    expect(message.match(/^ {2}- submissions row \d+ .*status: is none of/gm)).toHaveLength(20);
    expect(message).toContain("  - … and 5 more");
  });

  it("a row the database's own constraints refuse", async () => {
    const message = await expectRefused(
      tamper((lines) => {
        rowsOf(lines, "submission_feeds")[0].feed_id = "no-such-feed";
      }),
    );
    expect(message).toContain("database accepts the rows:\n  - submission_feeds (line");
    expect(message).toContain("foreign key");
  });

  it("an archive cut off before its end", async () => {
    const message = await expectRefused(original.filter((line) => !("end" in line)));
    expect(message).toContain("The archive ends early");
  });
});

describe("importing where it cannot", () => {
  it("refuses a database holding any data of its own before writing anything", async () => {
    const occupied = await freshDatabase();
    try {
      await occupied.handle.db.execute(
        sql`insert into plugins (name, type, repo_url, entry_point) values ('@me/x', 'transformer', 'https://example.com/x', 'https://example.com/x.js')`,
      );
      const before = await tableContents(occupied.handle.db);
      const folderBefore = folderState(uploadsDir);
      await expect(importArchive(occupied.handle.db, uploadsDir, archive)).rejects.toThrow(
        "The target database already holds data (in plugins): import into an empty database.",
      );
      expect(await tableContents(occupied.handle.db)).toEqual(before);
      expect(folderState(uploadsDir)).toEqual(folderBefore);
    } finally {
      await occupied.dispose();
    }
  });

  it("imports the untouched archive beside the uploads already there", async () => {
    const restored = await freshDatabase();
    const uploads = join(work, "restored", "uploads");
    mkdirSync(uploads, { recursive: true });
    writeFileSync(join(uploads, "already-here.txt"), "kept");
    try {
      const { summary, report } = await importArchive(restored.handle.db, uploads, archive);
      expect(summary).toEqual(endOf(original));
      expect(report.failed()).toBe(false);
      expect(report.checks.map((check) => check.name)).toEqual([
        "archive",
        "schema version",
        "empty target",
        "uploads",
        "rows meet today's contracts",
        "database accepts the rows",
        "row counts",
        "configs hold no raw credentials",
      ]);
      expect(report.notes).toEqual([]);
      expect(readdirSync(uploads).sort()).toEqual(["already-here.txt", uploadLine(original).upload].sort());
      expect(folderState(uploads).staging).toEqual([]);
      const [{ n }] = await queryRows<{ n: number }>(
        restored.handle.db,
        sql`select count(*)::int as n from submissions`,
      );
      expect(n).toBe(25);
    } finally {
      await restored.dispose();
    }
  });

  it("says so when the uploads cannot be moved in after the commit, and leaves no staged files", async () => {
    const restored = await freshDatabase();
    const uploads = join(work, "blocked", "uploads");
    // A folder where the upload's file must go: the rename after the commit fails.
    mkdirSync(join(uploads, uploadLine(original).upload as string, "inside"), { recursive: true });
    try {
      await expect(importArchive(restored.handle.db, uploads, archive)).rejects.toThrow(
        `The rows were imported, but moving the uploads into ${uploads} failed after 0 of 1`,
      );
      expect(folderState(uploads).staging).toEqual([]);
      const [{ n }] = await queryRows<{ n: number }>(
        restored.handle.db,
        sql`select count(*)::int as n from submissions`,
      );
      expect(n).toBe(25);
    } finally {
      await restored.dispose();
    }
  });
});

describe("configs that hold what looks like a raw credential", () => {
  const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
  /** The archive with feed beta's description holding a Telegram bot token, as a config stored before the scan. */
  const withToken = () =>
    original.map((line) =>
      line.table === "feeds"
        ? {
            ...line,
            rows: (line.rows as Row[]).map((row) =>
              row.id === "beta"
                ? { ...row, config: { ...(row.config as Row), description: `Bot: ${TOKEN}` } }
                : row,
            ),
          }
        : line,
    );

  it("are imported quarantined, hidden from everyone but their owners, and named in the report", async () => {
    const restored = await freshDatabase();
    const file = join(work, "with-token.curate.gz");
    writeArchive(file, withToken());
    try {
      const { report } = await importArchive(restored.handle.db, join(work, "quarantine-uploads"), file);
      expect(report.notes).toEqual([
        expect.stringMatching(/^Quarantined feed "beta".*raw credential at description\..*rotate/),
      ]);
      const [beta] = await queryRows<{ findings: unknown }>(
        restored.handle.db,
        sql`select secret_findings as findings from feeds where id = 'beta'`,
      );
      expect(beta.findings).toEqual([expect.objectContaining({ path: "description" })]);
      const env = { SUPER_ADMIN_ACCOUNTS: [] };
      await expect(getFeed(restored.handle.db, env, null, "beta")).rejects.toMatchObject({ status: 404 });
      expect((await getFeed(restored.handle.db, env, null, "alpha")).id).toBe("alpha");
    } finally {
      await restored.dispose();
    }
  });

  it("refuse the archive with --strict, naming where", async () => {
    const message = await expectRefused(withToken(), { strict: true });
    expect(message).toContain(
      'configs hold no raw credentials:\n  - feed "beta" holds what looks like a raw credential at description.',
    );
    expect(message).not.toContain(TOKEN);
  });
});
