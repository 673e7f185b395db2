import { describe, expect, it } from "vitest";
import { channelScheduleSchema } from "./feeds.ts";
import {
  type ChannelSchedule,
  describeChannelSchedule,
  planSendTimes,
  replannedMessage,
  sameSchedule,
  zonedInstant,
} from "./schedule-rules.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (times: number[]) => times.map((time) => new Date(time).toISOString());
const berlin = (slots: string[]): ChannelSchedule => ({ mode: "slots", slots, timezone: "Europe/Berlin" });

describe("slots", () => {
  it("plans the next free slots in the schedule's timezone, in order, after the last one taken", () => {
    const schedule = berlin(["18:00", "09:00", "13:00"]);
    // 10:00 in Berlin (CET, UTC+1): 09:00 has passed today.
    expect(iso(planSendTimes(schedule, { from: at("2026-01-15T09:00:00Z"), count: 4 }))).toEqual([
      "2026-01-15T12:00:00.000Z",
      "2026-01-15T17:00:00.000Z",
      "2026-01-16T08:00:00.000Z",
      "2026-01-16T12:00:00.000Z",
    ]);
    // The 13:00 slot was already taken: the next item goes at 18:00.
    expect(
      iso(
        planSendTimes(schedule, {
          from: at("2026-01-15T09:00:00Z"),
          count: 1,
          lastTakenAt: at("2026-01-15T12:00:00Z"),
        }),
      ),
    ).toEqual(["2026-01-15T17:00:00.000Z"]);
  });

  it("reads the slots in UTC when no timezone is set, and takes a slot at exactly now as passed", () => {
    const schedule: ChannelSchedule = { mode: "slots", slots: ["00:00", "12:00"] };
    expect(iso(planSendTimes(schedule, { from: at("2026-06-01T12:00:00Z"), count: 2 }))).toEqual([
      "2026-06-02T00:00:00.000Z",
      "2026-06-02T12:00:00.000Z",
    ]);
  });

  it("moves a slot in a daylight-saving gap to the next valid time, and runs a slot the gap meets once", () => {
    // 2026-03-29 in Berlin: 02:00 CET jumps to 03:00 CEST (01:00 UTC). 02:30 does not exist that night.
    expect(zonedInstant(Date.UTC(2026, 2, 29, 2, 30), "Europe/Berlin")).toBe(at("2026-03-29T01:00:00Z"));
    const gap = planSendTimes(berlin(["02:30"]), { from: at("2026-03-28T00:00:00Z"), count: 3 });
    expect(iso(gap)).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:00:00.000Z", // the gap: 03:00 CEST, the first valid time after it
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
    // 02:30 moved to 03:00 and the 03:00 slot are one send, not two at the same moment.
    const both = planSendTimes(berlin(["02:30", "03:00"]), { from: at("2026-03-28T23:00:00Z"), count: 2 });
    expect(iso(both)).toEqual(["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"]);
  });

  it("runs a slot in a daylight-saving overlap once, at its first occurrence", () => {
    // 2026-10-25 in Berlin: 03:00 CEST goes back to 02:00 CET, so 02:30 happens at 00:30 and again at 01:30 UTC.
    expect(zonedInstant(Date.UTC(2026, 9, 25, 2, 30), "Europe/Berlin")).toBe(at("2026-10-25T00:30:00Z"));
    const overlap = planSendTimes(berlin(["02:30"]), { from: at("2026-10-24T12:00:00Z"), count: 2 });
    expect(iso(overlap)).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
    // After the first 02:30 was taken, the second 02:30 of that night is not a slot of its own.
    const after = planSendTimes(berlin(["02:30"]), {
      from: at("2026-10-25T00:45:00Z"),
      count: 1,
      lastTakenAt: at("2026-10-25T00:30:00Z"),
    });
    expect(iso(after)).toEqual(["2026-10-26T01:30:00.000Z"]);
  });

  it("handles a southern zone with a half-hour offset, whose clocks go back in April", () => {
    // Australia/Adelaide: +10:30 until 2026-04-05 03:00 local, then +09:30; that night 02:30 happens twice.
    const times = planSendTimes(
      { mode: "slots", slots: ["02:30"], timezone: "Australia/Adelaide" },
      { from: at("2026-04-03T12:00:00Z"), count: 3 },
    );
    expect(iso(times)).toEqual([
      "2026-04-03T16:00:00.000Z", // 04-04 02:30 (+10:30)
      "2026-04-04T16:00:00.000Z", // 04-05 02:30, the first of the two
      "2026-04-05T17:00:00.000Z", // 04-06 02:30 (+09:30)
    ]);
  });
});

describe("rate", () => {
  it("spreads N per hour evenly, the first at once on a quiet channel", () => {
    const schedule: ChannelSchedule = { mode: "rate", count: 4, per: "hour" };
    expect(iso(planSendTimes(schedule, { from: at("2026-01-01T10:00:00Z"), count: 3 }))).toEqual([
      "2026-01-01T10:00:00.000Z",
      "2026-01-01T10:15:00.000Z",
      "2026-01-01T10:30:00.000Z",
    ]);
  });

  it("keeps one interval after the last send", () => {
    const schedule: ChannelSchedule = { mode: "rate", count: 3, per: "day" };
    const times = planSendTimes(schedule, {
      from: at("2026-01-01T10:00:00Z"),
      count: 2,
      lastTakenAt: at("2026-01-01T09:00:00Z"),
    });
    expect(iso(times)).toEqual(["2026-01-01T17:00:00.000Z", "2026-01-02T01:00:00.000Z"]);
  });
});

describe("the contract and the words", () => {
  it("accepts the three modes and refuses what is not one", () => {
    expect(channelScheduleSchema.safeParse({ mode: "immediate" }).success).toBe(true);
    expect(channelScheduleSchema.safeParse(berlin(["09:00"])).success).toBe(true);
    expect(channelScheduleSchema.safeParse({ mode: "rate", count: 4, per: "day" }).success).toBe(true);
    const bad = [
      { mode: "slots", slots: [] },
      { mode: "slots", slots: ["9:00"] },
      { mode: "slots", slots: ["24:00"] },
      { mode: "slots", slots: Array.from({ length: 25 }, (_, i) => `${String(i % 24).padStart(2, "0")}:00`) },
      { mode: "slots", slots: ["09:00"], timezone: "Mars/Olympus" },
      { mode: "rate", count: 0, per: "hour" },
      { mode: "rate", count: 2.5, per: "hour" },
      { mode: "rate", count: 2, per: "week" },
      { mode: "later" },
    ];
    for (const value of bad)
      expect(channelScheduleSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it("describes a schedule, compares two, and words a re-plan", () => {
    expect(describeChannelSchedule(berlin(["13:00", "09:00"]))).toBe("Daily at 09:00, 13:00 (Europe/Berlin)");
    expect(describeChannelSchedule({ mode: "rate", count: 4, per: "day" })).toBe(
      "At most 4 per day, spread evenly",
    );
    expect(describeChannelSchedule(undefined)).toBe("At once");
    expect(sameSchedule(berlin(["09:00", "13:00"]), berlin(["13:00", "09:00"]))).toBe(true);
    expect(sameSchedule(berlin(["09:00"]), null)).toBe(false);
    expect(sameSchedule({ mode: "immediate" }, null)).toBe(true);
    expect(replannedMessage(0)).toBe("");
    expect(replannedMessage(1)).toBe("1 scheduled item was re-planned.");
    expect(replannedMessage(3)).toBe("3 scheduled items were re-planned.");
  });
});
