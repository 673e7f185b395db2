import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { openDatabase } from "../db/index.ts";
import { type ChangeNotifier, createChangeNotifier, shareChanges } from "./changes.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;

let scratch: ScratchDatabase;
/** Two processes' notifiers: on PostgreSQL each with its own pool and listening connection, as processes have. */
let first: ChangeNotifier;
let second: ChangeNotifier;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  scratch = postgresUrl
    ? await openScratchDatabase("postgres", { adminUrl: postgresUrl, template: inject("pgTemplateDatabase") })
    : await openScratchDatabase("pglite", { template: inject("pgliteTemplateDir") });
  const other =
    scratch.handle.connection.driver === "postgres"
      ? await openDatabase({ url: scratch.handle.connection.url })
      : scratch.handle;
  if (other !== scratch.handle) closers.push(() => other.close());
  first = await shareChanges(scratch.handle);
  second = await shareChanges(other);
  closers.unshift(first.close, second.close);
});

afterAll(async () => {
  for (const close of closers) await close();
  await scratch.dispose();
});

const until = async (check: () => boolean) => {
  await expect.poll(check).toBe(true);
};

describe("change notices shared through the database", () => {
  it("drop the writer's kept answers at once and the other process's when the notice arrives", async () => {
    const dropped = { first: 0, second: 0 };
    const stops = [
      first.subscribe(() => {
        dropped.first += 1;
      }),
      second.subscribe(() => {
        dropped.second += 1;
      }),
    ];
    const pending = first.notify();
    expect(dropped.first).toBe(1);
    const version = await pending;
    expect(version).toBeGreaterThan(0);
    expect(first.version()).toBe(version);
    await until(() => second.version() === version);
    expect(dropped.second).toBeGreaterThan(0);
    for (const stop of stops) stop();
  });

  it("number changes in the order they are made, whichever process makes them", async () => {
    const a = await first.notify();
    const b = await second.notify();
    const c = await first.notify();
    expect(a).toBeLessThan(b);
    expect(b).toBeLessThan(c);
    await until(() => first.version() === c && second.version() === c);
  });

  it("never take a process's version back when an older notice arrives late", async () => {
    const newest = await second.notify();
    await until(() => first.version() === newest);
    await first.notify();
    expect(first.version()).toBeGreaterThan(newest);
  });
});

describe("change notices of a single process", () => {
  it("count the changes and drop kept answers at once", async () => {
    const changes = createChangeNotifier();
    let dropped = 0;
    changes.subscribe(() => {
      dropped += 1;
    });
    expect(changes.version()).toBe(0);
    expect(await changes.notify()).toBe(1);
    expect(await changes.notify()).toBe(2);
    expect(dropped).toBe(2);
    expect(changes.version()).toBe(2);
  });
});
