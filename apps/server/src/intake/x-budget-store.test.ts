import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScratchDatabase } from "../../test/databases.ts";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { freshDatabase } from "../../test/harness.ts";
import type { Database } from "../db/index.ts";
import { processingJobs } from "../db/schema.ts";
import { requestAcknowledgement } from "../processing/acknowledgements.ts";
import {
  createXBudget,
  saveXSearchWaits,
  waitingXAcknowledgements,
  xSearchWaitOf,
} from "./x-budget-store.ts";

/** The X budget as every process shares it in the database: windows on the hour, ceilings, one report a window. */
let scratch: ScratchDatabase;
let db: Database;

beforeAll(async () => {
  scratch = await freshDatabase();
  db = scratch.handle.db;
});

afterAll(async () => {
  await scratch?.dispose();
});

describe("the X budget in the database", () => {
  it("counts calls per clock hour, refuses past the limit or a lower ceiling, and starts over on the hour", async () => {
    let now = new Date("2031-01-01T09:10:00Z");
    const budget = createXBudget(db, { limit: 3, clock: () => now });
    // Another process's budget over the same table counts into the same window.
    const otherWorker = createXBudget(db, { limit: 3, clock: () => now });
    expect((await budget.take()).allowed).toBe(true);
    expect((await otherWorker.take(2)).allowed).toBe(true);
    expect((await budget.take(2)).allowed).toBe(false);
    expect((await budget.take()).allowed).toBe(true);
    expect((await otherWorker.take()).allowed).toBe(false);
    const window = (await budget.take()).window;
    expect(window.end.toISOString()).toBe("2031-01-01T10:00:00.000Z");
    expect(await budget.spent(window)).toBe(3);

    now = new Date("2031-01-01T10:00:00Z");
    const next = await budget.take();
    expect(next.allowed).toBe(true);
    expect(await budget.spent(next.window)).toBe(1);
  });

  it("lets one caller per window report it spent, whichever worker asks", async () => {
    let now = new Date("2031-01-02T09:10:00Z");
    const one = createXBudget(db, { limit: 3, clock: () => now });
    const two = createXBudget(db, { limit: 3, clock: () => now });
    const window = () => (now.getUTCHours() === 9 ? first : second);
    const first = { start: new Date("2031-01-02T09:00:00Z"), end: new Date("2031-01-02T10:00:00Z") };
    const second = { start: new Date("2031-01-02T10:00:00Z"), end: new Date("2031-01-02T11:00:00Z") };
    expect(await one.firstToReportSpent(window())).toBe(true);
    expect(await two.firstToReportSpent(window())).toBe(false);
    expect(await one.firstToReportSpent(window())).toBe(false);
    now = new Date("2031-01-02T10:20:00Z");
    expect(await two.firstToReportSpent(window())).toBe(true);
    expect(await one.firstToReportSpent(window())).toBe(false);
  });

  it("counts the acknowledgements on X still to send", async () => {
    await insertFeed(db, { id: "acked" });
    const config = { acknowledgements: { networks: { twitter: true, bluesky: true }, onSubmit: true } };
    const ask = async (curatorPostKey: string) => {
      const { tweetId } = await insertSubmission(db, { feeds: [{ feedId: "acked" }] });
      return requestAcknowledgement(db, {
        submissionId: tweetId,
        feedId: "acked",
        kind: "submitted",
        config,
        curatorPostKey,
      });
    };
    const onX = await ask("1900000000000000001");
    await ask("1900000000000000002");
    await ask("bluesky:at://did:plc:abc/app.bsky.feed.post/3k");
    expect(await waitingXAcknowledgements(db)).toBe(2);
    await db
      .update(processingJobs)
      .set({ status: "completed" })
      .where(eq(processingJobs.id, onX ?? ""));
    expect(await waitingXAcknowledgements(db)).toBe(1);
  });

  it("keeps the set of waiting feeds a tick left, with when each began waiting", async () => {
    await insertFeed(db, { id: "waits1" });
    await insertFeed(db, { id: "waits2" });
    const until = new Date("2031-01-03T10:00:00Z");
    await saveXSearchWaits(
      db,
      [
        { feedId: "waits1", searches: 4, until },
        { feedId: "waits2", searches: 1, until },
        { feedId: "deleted-meanwhile", searches: 2, until },
      ],
      new Date("2031-01-03T09:01:00Z"),
    );
    await saveXSearchWaits(db, [{ feedId: "waits1", searches: 3, until }], new Date("2031-01-03T09:16:00Z"));
    expect(await xSearchWaitOf(db, "waits1")).toEqual({
      searches: 3,
      since: "2031-01-03T09:01:00.000Z",
      until: "2031-01-03T10:00:00.000Z",
    });
    expect(await xSearchWaitOf(db, "waits2")).toBeNull();
    expect(await xSearchWaitOf(db, "deleted-meanwhile")).toBeNull();
    await saveXSearchWaits(db, [], new Date("2031-01-03T09:31:00Z"));
    expect(await xSearchWaitOf(db, "waits1")).toBeNull();
  });
});
