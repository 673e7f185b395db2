import { accessSync, constants, globSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Scratch files (every embedded database a test copies from its template, the journeys' data folders and browser
 * profiles) go to memory when the machine has a tmpfs at /dev/shm: on the 2-core CI machine a copy of the 42 MB
 * template cost 0.55 s of CPU on its disk against 0.06 s in memory, and the API files on PGlite ran in 146 s
 * instead of 167 s. The folder is this run's (named by its process id), removed when the run ends; one left by a
 * run that was killed is removed by the next. A TMPDIR set by the caller is kept.
 */
function scratchInMemory() {
  const shm = "/dev/shm";
  if (process.env.TMPDIR) return;
  try {
    accessSync(shm, constants.W_OK);
  } catch {
    return;
  }
  for (const name of readdirSync(shm)) {
    const pid = Number(/^curate-test-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !processExists(pid))
      rmSync(`${shm}/${name}`, { recursive: true, force: true });
  }
  // What a failed journey's pages showed must outlive the run's folder.
  process.env.CURATE_E2E_FAILURES_DIR ??= join(tmpdir(), "curate-e2e-failures");
  const dir = `${shm}/curate-test-${process.pid}`;
  mkdirSync(dir, { recursive: true });
  process.env.TMPDIR = dir;
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

scratchInMemory();

/**
 * The API files run once on the embedded database and, when `TEST_DATABASE_URL` names a PostgreSQL server, those
 * that open a database once more on it, in the same run (`api` and `api-postgres`). A worker runs its files one after another in
 * one module graph (`isolate: false`): each file opens its own database and server, so they share only the imported
 * code, which is then loaded once per worker instead of once per file.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * Limits that only stop a test that would otherwise hang. Assertions wait for states, never for durations, and a
 * machine busy with a second gate beside this one is several times slower: these are that generous. They include
 * `expect.poll`, whose own default (one second) would make every poll a race.
 */
const patientLimits = {
  testTimeout: 120_000,
  hookTimeout: 180_000,
  expect: { poll: { timeout: 60_000, interval: 100 } },
};

/**
 * Server files that open no database (parsers, clients against fakes, plugins' renderers) run once, in `api`; the
 * rest run on each driver. Decided by what a file uses, so a new file lands in the right place by itself.
 */
const serverFiles = globSync("apps/server/src/**/*.test.ts");
const opensDatabase = (file: string) =>
  /\b(startTestServer|freshDatabase|serveApp|openScratchDatabase|migratedDatabase|databaseAtMigration|startServer)\b/.test(
    readFileSync(file, "utf8"),
  );
const databaseFiles = serverFiles.filter(opensDatabase);

const apiProject = (
  name: string,
  databaseUrl: string,
  include: string[],
): TestProjectInlineConfiguration => ({
  test: {
    name,
    include,
    isolate: false,
    sequence: { groupOrder: 1 },
    globalSetup: ["apps/server/test/global-setup.ts"],
    // What the harness and the tests read to choose the driver; empty means the embedded one.
    env: { TEST_DATABASE_URL: databaseUrl },
    ...patientLimits,
  },
});

/**
 * Journeys that run far longer than the others (alone on the 2-core machine: the editor's screens 64 s, the lists'
 * 46 s, most others 10–35 s). The journeys come last in the run, so one of these started late was the run's last
 * minute, with the other workers done; started first, the rest of the journeys share out around them.
 */
const LONGEST_JOURNEYS = ["e2e/screens-editor.test.ts", "e2e/screens-lists.test.ts"];

/** Vitest's order (projects one after another, larger files first), with the longest journeys moved to the front. */
class LongestJourneysFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLongest = (spec: TestSpecification) =>
      LONGEST_JOURNEYS.some((file) => spec.moduleId.endsWith(`/${file}`));
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    // Array sort is stable: within a project, everything else keeps vitest's order.
    return sorted.sort(
      (a, b) =>
        projects.indexOf(a.project.name) - projects.indexOf(b.project.name) ||
        Number(isLongest(b)) - Number(isLongest(a)),
    );
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestJourneysFirst },
    // For one run of every project. The gate (`npm run validate`) runs two side by side instead, two workers each:
    // the API files, which keep the cores busy, and the unit files and journeys, which spend much of their time
    // waiting on browsers and servers (decision 0041).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: "unit",
          // First, on its own, while the journeys' servers start in the background (the gate runs the unit files
          // and the journeys in one process). After the journeys (projects otherwise run in name order) its
          // workers' start-up was the run's last ~50 s.
          sequence: { groupOrder: 0 },
          // One module graph per worker, as for the API files: React, the router and the testing library load once
          // per worker instead of once per file (28 s → 8 s for the project; each file still gets its own DOM, and
          // the files pass shuffled in one worker).
          isolate: false,
          include: ["packages/*/src/**/*.test.ts", "apps/web/src/**/*.test.{ts,tsx}"],
          environment: "node",
          setupFiles: ["apps/web/test/setup.ts"],
          ...patientLimits,
        },
      },
      apiProject("api", "", serverFiles),
      ...(postgresUrl ? [apiProject("api-postgres", postgresUrl, databaseFiles)] : []),
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          sequence: { groupOrder: 1 },
          globalSetup: ["e2e/global-setup.ts"],
          ...patientLimits,
          testTimeout: 240_000,
        },
      },
    ],
  },
});
