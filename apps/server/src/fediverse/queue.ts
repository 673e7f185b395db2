import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import type { PgBoss } from "pg-boss";

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
  readonly nativeRetrial = true;
  #ready: Promise<void> | null = null;

  constructor(
    private readonly boss: PgBoss,
    private readonly name: string,
  ) {}

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
      .then(() => undefined);
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
