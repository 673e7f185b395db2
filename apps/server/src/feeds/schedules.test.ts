import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nextScheduledRun, scheduleError } from "./schedules.ts";

interface RecordedRuns {
  from: string;
  cases: Array<{ expression: string; timezone: string; runs: string[] }>;
}

/** What cron-parser, the library before croner, made of every schedule form a feed could hold. */
const recorded = JSON.parse(
  readFileSync(new URL("./fixtures/cron-parser-runs.json", import.meta.url), "utf8"),
) as RecordedRuns;

function nextRuns(expression: string, timezone: string, from: Date, count: number): string[] {
  const runs: string[] = [];
  let after = from;
  for (let i = 0; i < count; i++) {
    after = nextScheduledRun(expression, after, timezone);
    runs.push(after.toISOString());
  }
  return runs;
}

describe("ingestion schedules", () => {
  it.each(recorded.cases.map((c) => [c.expression, c.timezone, c.runs] as const))(
    "%s in %s runs when it ran before the change of library",
    (expression, timezone, runs) => {
      expect(scheduleError(expression, timezone)).toBeNull();
      expect(nextRuns(expression, timezone, new Date(recorded.from), 10)).toEqual(runs);
    },
  );

  it("still refuses what could never be read", () => {
    for (const expression of ["", "every day at noon", "61 * * * *", "0 25 * * *", "* * * * * * * *"]) {
      expect(scheduleError(expression), expression).toMatch(/^Not a readable cron schedule: /);
    }
  });
});
