import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import type { PgBoss } from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { loadOnce } from "../lib/load-once.ts";

/** Fedify's inbox queue: inbound activities whose signatures the request checked, handled by the workers. */
export const FEDIVERSE_INBOX_QUEUE = "curate-fediverse-inbox";

/** Fedify's messages wrapped for pg-boss, whose job data must be an object. */
interface Envelope {
  message: unknown;
}

/** Attempts and backoff of a message whose handler throws (pg-boss retries it, doubling the wait). */
const RETRY_LIMIT = 8;
const RETRY_DELAY_SECONDS = 30;
const RETRY_DELAY_MAX_SECONDS = 12 * 60 * 60;

/**
 * Fedify's `MessageQueue` on the project's pg-boss (decision 0037): on the app's own database (PGlite or
 * PostgreSQL), jobs like every other queue's. A delay is pg-boss's `startAfter`; a failing message is retried by
 * pg-boss with exponential backoff (`nativeRetrial`), so Fedify does not retry it a second time.
 */
export class PgBossMessageQueue implements MessageQueue {
  private readonly boss: PgBoss;
  private readonly name: string;
  readonly nativeRetrial = true;
  #ready: Promise<void> | null = null;

  constructor(boss: PgBoss, name: string) {
    this.boss = boss;
    this.name = name;
  }

  private ready(): Promise<void> {
    this.#ready ??= this.boss
      .createQueue(this.name, {
        retryLimit: RETRY_LIMIT,
        retryDelay: RETRY_DELAY_SECONDS,
        retryBackoff: true,
        retryDelayMax: RETRY_DELAY_MAX_SECONDS,
        expireInSeconds: 15 * 60,
        deleteAfterSeconds: 24 * 60 * 60,
        // Workers wake on each new message (LISTEN/NOTIFY) instead of at their next poll.
        notify: true,
      } as Parameters<PgBoss["createQueue"]>[1])
      .then(
        () => undefined,
        (error) => {
          // A database that was away is asked again by the next message, not refused for good.
          this.#ready = null;
          throw error;
        },
      );
    return this.#ready;
  }

  private startAfter(options?: MessageQueueEnqueueOptions): Date | undefined {
    const ms = options?.delay?.total("millisecond") ?? 0;
    return ms > 0 ? new Date(Date.now() + ms) : undefined;
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.ready();
    const startAfter = this.startAfter(options);
    await this.boss.send(this.name, { message } satisfies Envelope, startAfter ? { startAfter } : {});
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    await this.ready();
    const startAfter = this.startAfter(options);
    await this.boss.insert(
      this.name,
      messages.map((message) => ({
        data: { message } satisfies Envelope,
        ...(startAfter ? { startAfter } : {}),
      })),
    );
  }

  async listen(
    handler: (message: unknown) => Promise<void> | void,
    options: MessageQueueListenOptions = {},
  ): Promise<void> {
    await this.ready();
    const workerId = await this.boss.work<Envelope>(
      this.name,
      { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5, batchSize: 1, localConcurrency: 2 },
      async ([job]) => {
        await handler(job.data.message);
      },
    );
    // Fedify's contract: listening lasts until the signal aborts.
    await new Promise<void>((resolve) => {
      if (options.signal?.aborted) return resolve();
      options.signal?.addEventListener("abort", () => resolve(), { once: true });
    });
    await this.boss.offWork(this.name, { id: workerId });
  }
}

/** Fedify's inbox queue as a process without workers holds it: it enqueues, and closes what it opened. */
export interface EnqueueOnlyQueue {
  queue: MessageQueue;
  close(): Promise<void>;
}

/**
 * The inbox queue of a process that answers the fediverse's requests (the API role, and the API side of `all`):
 * Fedify verifies an activity in the request and enqueues it here; the workers listen (worker/host.ts). Its pg-boss
 * client — and the queue engine's module — are loaded with the first inbound activity, so an API process nobody
 * federates with opens no queue at all (decision 0009: the API otherwise never starts pg-boss).
 */
export function enqueueOnlyInbox(database: DatabaseHandle, logger: Logger): EnqueueOnlyQueue {
  let boss: PgBoss | null = null;
  // The next activity tries again after a failure (the workers may not have installed the queue's tables yet).
  const opening = loadOnce(
    async () => {
      const { createEnqueueOnlyClient } = await import("../worker/queue.ts");
      const client = createEnqueueOnlyClient(database);
      client.on("error", (error) => logger.warn({ err: error }, "fediverse inbox queue error"));
      boss = client;
      await client.start();
      return new PgBossMessageQueue(client, FEDIVERSE_INBOX_QUEUE);
    },
    async () => {
      await boss?.stop({ graceful: false, timeout: 1000 }).catch(() => undefined);
      boss = null;
    },
  );
  const open = opening.get;
  // A queue that cannot take the activity yet (its tables not installed, the database lost) is an outage: the sender
  // is told 503 and delivers again later, never a 500.
  const unavailable = (error: unknown): never => {
    logger.warn({ err: error }, "fediverse inbox queue unavailable");
    throw new AppError("UNAVAILABLE", "The inbox cannot take activities right now: deliver again later.");
  };
  const queue: MessageQueue = {
    nativeRetrial: true,
    enqueue: async (message, options) =>
      (await open().catch(unavailable)).enqueue(message, options).catch(unavailable),
    enqueueMany: async (messages, options) =>
      (await open().catch(unavailable)).enqueueMany(messages, options).catch(unavailable),
    listen: () =>
      Promise.reject(
        new Error("This process only enqueues inbound fediverse activities: the workers handle them."),
      ),
  };
  return {
    queue,
    async close() {
      await opening.current()?.catch(() => undefined);
      await boss?.stop({ graceful: false, timeout: 1000 });
    },
  };
}
