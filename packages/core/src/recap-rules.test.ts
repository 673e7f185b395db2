import { describe, expect, it } from "vitest";
import { feedConfigSchema } from "./feeds.ts";
import {
  describeSchedule,
  formatRunTime,
  isValidTimezone,
  latestRecapRun,
  nextRecapRuns,
  recapList,
  scheduleProblem,
} from "./recap-rules.ts";

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe("recap schedules", () => {
  it("accepts five-part cron and nicknames, and refuses the rest with a reason", () => {
    expect(scheduleProblem("0 9 * * 1")).toBeNull();
    expect(scheduleProblem("@weekly")).toBeNull();
    expect(scheduleProblem("30 18 * * MON-FRI")).toBeNull();
    expect(scheduleProblem("")).toMatch(/required/);
    expect(scheduleProblem("every monday")).toMatch(/^Not a valid cron schedule/);
    expect(scheduleProblem("61 * * * *")).toMatch(/minute/);
    expect(scheduleProblem("0 0 9 * * 1")).toMatch(/^Not a valid cron schedule/);
    expect(scheduleProblem("0 0 30 2 *")).toBe("This schedule never runs");
    expect(scheduleProblem("*/5 * * * *")).toBe("A recap runs at most once every 60 minutes");
    expect(scheduleProblem(`0 9 * * 1${" ".repeat(120)}x`)).toMatch(/at most 100 characters/);
  });

  it("reads a schedule in words, or gives null for an invalid one", () => {
    expect(describeSchedule("0 9 * * 1")).toBe("At 09:00, only on Monday");
    expect(describeSchedule("0 18 * * *")).toBe("At 18:00");
    expect(describeSchedule("nonsense")).toBeNull();
  });

  it("lists the next runs in the recap's timezone, across a daylight-saving change", () => {
    // Europe/Berlin leaves summer time on 25 October 2026: 09:00 local is 07:00 UTC before, 08:00 UTC after.
    const runs = nextRecapRuns("0 9 * * 1", "Europe/Berlin", 3, new Date("2026-10-13T00:00:00Z"));
    expect(iso(runs)).toEqual([
      "2026-10-19T07:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
      "2026-11-02T08:00:00.000Z",
    ]);
    expect(iso(nextRecapRuns("0 0 * * *", undefined, 1, new Date("2026-01-01T10:00:00Z")))).toEqual([
      "2026-01-02T00:00:00.000Z",
    ]);
    expect(nextRecapRuns("bad", "UTC", 3)).toEqual([]);
    expect(nextRecapRuns("0 0 * * *", "Mars/Olympus", 3)).toEqual([]);
  });

  it("finds the latest run at or before a moment", () => {
    const schedule = "0 0 * * 1";
    const slot = new Date("2026-11-23T05:00:00Z"); // Monday 00:00 in New York
    expect(latestRecapRun(schedule, "America/New_York", slot)?.toISOString()).toBe(slot.toISOString());
    expect(latestRecapRun(schedule, "America/New_York", new Date(slot.getTime() - 1))?.toISOString()).toBe(
      "2026-11-16T05:00:00.000Z",
    );
    expect(latestRecapRun("bad", "UTC", slot)).toBeNull();
  });

  it("knows IANA timezones and formats run times in them", () => {
    expect(isValidTimezone("Europe/Berlin")).toBe(true);
    expect(isValidTimezone("UTC")).toBe(true);
    expect(isValidTimezone("Mars/Olympus")).toBe(false);
    expect(isValidTimezone("")).toBe(false);
    expect(formatRunTime(new Date("2026-11-30T08:00:00Z"), "Europe/Berlin")).toBe(
      "Mon, Nov 30, 2026, 09:00 (Europe/Berlin)",
    );
  });

  it("treats one recap or a list alike", () => {
    expect(recapList(undefined)).toEqual([]);
    expect(recapList({ id: "a", schedule: "@daily" })).toEqual([{ id: "a", schedule: "@daily" }]);
    expect(recapList([{ id: "a" }, { id: "b" }])).toHaveLength(2);
  });
});

describe("the recap contract in a feed config", () => {
  const config = (recap: unknown) => ({ id: "f", name: "F", description: "D", outputs: { recap } });
  const issues = (recap: unknown) =>
    feedConfigSchema
      .safeParse(config(recap))
      .error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("accepts one recap or a list", () => {
    const weekly = {
      id: "weekly",
      name: "Weekly",
      enabled: true,
      schedule: "0 9 * * 1",
      timezone: "Europe/Berlin",
    };
    expect(feedConfigSchema.safeParse(config(weekly)).success).toBe(true);
    expect(
      feedConfigSchema.safeParse(config([weekly, { ...weekly, id: "daily", schedule: "@daily" }])).success,
    ).toBe(true);
  });

  it("names the field of a bad schedule, a bad timezone or a repeated id", () => {
    expect(issues({ id: "w", schedule: "every monday" })).toEqual([
      ["outputs.recap.schedule", expect.stringMatching(/^Not a valid cron schedule/)],
    ]);
    expect(issues([{ id: "w", schedule: "@daily", timezone: "Mars/Olympus" }])).toEqual([
      ["outputs.recap.0.timezone", "Unknown timezone: use an IANA name such as UTC or Europe/Berlin"],
    ]);
    expect(
      issues([
        { id: "w", schedule: "@daily" },
        { id: "w", schedule: "@weekly" },
      ]),
    ).toEqual([["outputs.recap.1.id", 'Two recaps share the id "w"']]);
    expect(issues({ id: "Bad Id", schedule: "@daily" })?.[0][0]).toBe("outputs.recap.id");
  });
});
