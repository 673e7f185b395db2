import { testMessageQueue } from "@fedify/testing";
import type { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { ScratchDatabase } from "../../test/databases.ts";
import { freshDatabase } from "../../test/harness.ts";
import { createQueueClient } from "../worker/queue.ts";
import { PgBossMessageQueue } from "./queue.ts";

/**
 * Fedify's MessageQueue on pg-boss, checked by the framework's own conformance test (`@fedify/testing`): delivery,
 * delays, batches and a hundred messages over two listeners, on the driver this run tests.
 */
let scratch: ScratchDatabase;
let boss: PgBoss;

beforeAll(async () => {
  scratch = await freshDatabase();
  boss = createQueueClient(scratch.handle, { monitorIntervalSeconds: 1 });
  await boss.start();
}, 120_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, timeout: 1000 });
  await scratch?.dispose();
});

describe("PgBossMessageQueue", () => {
  it("passes @fedify/testing's testMessageQueue", { timeout: 180_000 }, async () => {
    await testMessageQueue(
      () => new PgBossMessageQueue(boss, "fediverse-conformance"),
      async ({ controller }) => {
        controller.abort();
      },
    );
  });
});
