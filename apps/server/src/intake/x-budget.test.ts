import { describe, expect, it } from "vitest";
import {
  type AccountDemand,
  allocateXSearches,
  botReserve,
  ticksLeftInWindow,
  xBudgetWindow,
} from "./x-budget.ts";

/** `feeds` feeds of `searches` never-run searches each, keyed `<account>/<feed>/<search>`. */
function account(name: string, feeds: number, searches: number): AccountDemand {
  return {
    account: name,
    lastServedAt: null,
    feeds: Array.from({ length: feeds }, (_, f) => ({
      feedId: `${name}-f${String(f).padStart(2, "0")}`,
      lastServedAt: null,
      searches: Array.from({ length: searches }, (_, s) => ({ key: `${name}/f${f}/s${s}`, lastRunAt: null })),
    })),
  };
}

const accountOf = (key: string) => key.split("/")[0];
const feedOf = (key: string) => key.split("/").slice(0, 2).join("/");
const countBy = (keys: readonly string[], by: (key: string) => string) => {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(by(key), (counts.get(by(key)) ?? 0) + 1);
  return counts;
};

describe("allocateXSearches", () => {
  it("keeps the bot's reserve and gives a light account all it asks before a greedy one takes the rest", () => {
    const plan = allocateXSearches({
      remaining: 30,
      reserved: 10,
      ticksLeft: 1,
      pending: [account("greedy", 15, 10), account("other", 1, 3)],
    });
    expect(plan.run).toHaveLength(20);
    expect(countBy(plan.run, accountOf)).toEqual(
      new Map([
        ["greedy", 17],
        ["other", 3],
      ]),
    );
    expect(plan.postponed).toHaveLength(150 + 3 - 20);
    expect(plan.windowSpent).toBe(true);
  });

  it("alternates accounts, then feeds within an account, one search at a time", () => {
    const plan = allocateXSearches({
      remaining: 6,
      reserved: 0,
      ticksLeft: 1,
      pending: [account("b", 3, 4), account("a", 1, 4)],
    });
    // Never-served ties go by name: a first; b's feeds take turns.
    expect(plan.run).toEqual(["a/f0/s0", "b/f0/s0", "a/f0/s1", "b/f1/s0", "a/f0/s2", "b/f2/s0"]);
  });

  it("spreads the searches' part of the window over the ticks left", () => {
    const pending = [account("greedy", 15, 10)];
    const early = allocateXSearches({ remaining: 100, reserved: 20, ticksLeft: 4, pending });
    expect(early.run).toHaveLength(20);
    expect(early.windowSpent).toBe(false);
    const last = allocateXSearches({ remaining: 100, reserved: 20, ticksLeft: 1, pending });
    expect(last.run).toHaveLength(80);
    expect(last.windowSpent).toBe(true);
  });

  it("runs nothing when the bot's reserve takes all that is left", () => {
    const plan = allocateXSearches({
      remaining: 5,
      reserved: 9,
      ticksLeft: 3,
      pending: [account("a", 1, 2)],
    });
    expect(plan.run).toEqual([]);
    expect(plan.postponed).toEqual(["a/f0/s0", "a/f0/s1"]);
    expect(plan.windowSpent).toBe(true);
  });

  it("is not spent when every due search fits", () => {
    const plan = allocateXSearches({
      remaining: 50,
      reserved: 5,
      ticksLeft: 1,
      pending: [account("a", 2, 2)],
    });
    expect(plan.run).toHaveLength(4);
    expect(plan.postponed).toEqual([]);
    expect(plan.windowSpent).toBe(false);
  });

  it("starts the rotation at the account, feed and search served longest ago", () => {
    const pending: AccountDemand[] = [
      {
        account: "a",
        lastServedAt: 500,
        feeds: [
          { feedId: "a1", lastServedAt: 500, searches: [{ key: "a1/x", lastRunAt: 500 }] },
          {
            feedId: "a2",
            lastServedAt: 300,
            searches: [
              { key: "a2/recent", lastRunAt: 300 },
              { key: "a2/older", lastRunAt: 100 },
            ],
          },
        ],
      },
      {
        account: "b",
        lastServedAt: 200,
        feeds: [{ feedId: "b1", lastServedAt: 200, searches: [{ key: "b1/x", lastRunAt: 200 }] }],
      },
      {
        account: "c",
        lastServedAt: null,
        feeds: [{ feedId: "c1", lastServedAt: null, searches: [{ key: "c1/never", lastRunAt: null }] }],
      },
    ];
    const plan = allocateXSearches({ remaining: 10, reserved: 0, ticksLeft: 1, pending });
    // c never served; b last at 200; a last at 500. In a, a2 (300) before a1 (500); in a2 the older search first.
    expect(plan.run).toEqual(["c1/never", "b1/x", "a2/older", "a1/x", "a2/recent"]);
  });

  it("over several ticks serves every feed of a greedy account in turn, and every search once", () => {
    let pending = [account("greedy", 15, 10), account("other", 1, 1)];
    const runs: string[] = [];
    for (let tick = 1; tick <= 30 && pending.some((a) => a.feeds.some((f) => f.searches.length)); tick++) {
      const plan = allocateXSearches({ remaining: 7, reserved: 0, ticksLeft: 1, pending });
      runs.push(...plan.run);
      // Within a tick no feed of an account gets a second search before each of its due feeds had one.
      const perFeed = [
        ...countBy(
          plan.run.filter((k) => accountOf(k) === "greedy"),
          feedOf,
        ).values(),
      ];
      expect(perFeed.every((n) => n === 1)).toBe(true);
      // What ran saved its cursor (later in the tick, later in time) and is not due again in this test.
      const ranAt = new Map(plan.run.map((key, index) => [key, tick * 100 + index]));
      const latest = (keys: string[]) =>
        Math.max(...keys.map((k) => ranAt.get(k) ?? Number.NEGATIVE_INFINITY));
      pending = pending.map((a) => {
        const accountRan = latest(a.feeds.flatMap((f) => f.searches.map((s) => s.key)));
        return {
          ...a,
          lastServedAt: Number.isFinite(accountRan) ? accountRan : a.lastServedAt,
          feeds: a.feeds.map((f) => {
            const feedRan = latest(f.searches.map((s) => s.key));
            return {
              ...f,
              lastServedAt: Number.isFinite(feedRan) ? feedRan : f.lastServedAt,
              searches: f.searches.filter((s) => !ranAt.has(s.key)),
            };
          }),
        };
      });
    }
    expect(runs).toHaveLength(151);
    expect(new Set(runs).size).toBe(151);
    // The light account's one search went in the first tick.
    expect(runs.slice(0, 7)).toContain("other/f0/s0");
    // The greedy account's feeds took turns: each of its first 15 searches came from a different feed.
    const greedy = runs.filter((k) => accountOf(k) === "greedy");
    expect(new Set(greedy.slice(0, 15).map(feedOf)).size).toBe(15);
  });

  it("says how long the window has left in ticks, and how much the bot keeps aside", () => {
    const now = new Date("2031-03-04T10:01:00Z");
    const window = xBudgetWindow(now);
    expect(window.start.toISOString()).toBe("2031-03-04T10:00:00.000Z");
    expect(window.end.toISOString()).toBe("2031-03-04T11:00:00.000Z");
    expect(ticksLeftInWindow(now, window, 15 * 60_000)).toBe(4);
    expect(ticksLeftInWindow(new Date("2031-03-04T10:59:59Z"), window, 60_000)).toBe(1);
    expect(botReserve({ ticksAfterThis: 3, mentionSources: 1, waitingAcknowledgements: 2 })).toBe(5);
  });
});
