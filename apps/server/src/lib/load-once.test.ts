import { describe, expect, it } from "vitest";
import { loadOnce } from "./load-once.ts";

describe("loadOnce", () => {
  it("loads on the first call and shares that load with every caller after", async () => {
    let loads = 0;
    const thing = loadOnce(async () => ++loads);
    expect(thing.current()).toBeNull();
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([thing.get(), thing.get()]);
    expect([first, second, await thing.get()]).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
    await expect(thing.current()).resolves.toBe(1);
  });

  it("forgets a failed load, cleans up before its callers hear of it, and loads again on the next call", async () => {
    const events: string[] = [];
    let attempts = 0;
    const thing = loadOnce(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("tables not installed yet");
        return "ready";
      },
      (error) => {
        events.push(`cleaned up after: ${(error as Error).message}`);
      },
    );
    await expect(
      thing.get().catch((error: Error) => {
        events.push(`caller heard: ${error.message}`);
        throw error;
      }),
    ).rejects.toThrow("tables not installed yet");
    expect(events).toEqual([
      "cleaned up after: tables not installed yet",
      "caller heard: tables not installed yet",
    ]);
    expect(thing.current()).toBeNull();
    await expect(thing.get()).resolves.toBe("ready");
    await expect(thing.get()).resolves.toBe("ready");
    expect(attempts).toBe(2);
  });
});
