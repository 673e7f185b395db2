/**
 * The checks an import runs before it commits. Each is named and keeps its own problems, so a step added later
 * (configs quarantined, a `--strict` that refuses what would otherwise be a note) adds a check or a note here
 * instead of throwing on its own.
 */
export const IMPORT_CHECKS = {
  archive: "archive",
  schemaVersion: "schema version",
  emptyTarget: "empty target",
  rows: "rows meet today's contracts",
  database: "database accepts the rows",
  rowCounts: "row counts",
  uploads: "uploads",
  secrets: "configs hold no raw credentials",
} as const;

/** Problems a check lists by name; the rest are counted, so a report stays readable for any archive. */
const PROBLEMS_LISTED = 20;

export interface ImportCheck {
  name: string;
  problems: string[];
  /** Problems found beyond those listed. */
  more: number;
}

export class ImportReport {
  private readonly byName = new Map<string, ImportCheck>();
  /** Lines the command prints after a successful import: what it did besides restoring (configs quarantined). */
  readonly notes: string[] = [];

  /** Marks `name` as run (a check with no problems passed). */
  ran(name: string): ImportCheck {
    let check = this.byName.get(name);
    if (!check) {
      check = { name, problems: [], more: 0 };
      this.byName.set(name, check);
    }
    return check;
  }

  fail(name: string, problem: string) {
    const check = this.ran(name);
    if (check.problems.length < PROBLEMS_LISTED) check.problems.push(problem);
    else check.more++;
  }

  failed(): boolean {
    return this.checks.some((check) => check.problems.length > 0);
  }

  get checks(): ImportCheck[] {
    return [...this.byName.values()];
  }

  /** The refusal as the command line prints it: each failed check with its problems. */
  describeRefusal(): string {
    const lines = ["Nothing was imported: the database and the uploads folder are as they were."];
    for (const check of this.checks.filter((c) => c.problems.length > 0)) {
      lines.push(`${check.name}:`);
      for (const problem of check.problems) lines.push(`  - ${problem}`);
      if (check.more > 0) lines.push(`  - … and ${check.more} more`);
    }
    return lines.join("\n");
  }
}
