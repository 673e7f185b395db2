import { z } from "zod";
import { type DistributorPlugin, PluginError, type TransformerPlugin } from "../src/plugins/types.ts";

export interface RecordedDelivery {
  input: unknown;
  config: unknown;
  idempotencyKey: string | null;
  jobId: string;
}

/**
 * A local distributor that records what it receives. `failNext` makes the next deliveries fail (retryable or
 * not), as a channel that is down or refuses would.
 */
export function recordingDistributor(name = "@test/recorder") {
  const deliveries: RecordedDelivery[] = [];
  const failures: Array<{ retryable: boolean; message: string }> = [];
  const plugin: DistributorPlugin<{ channel?: string }> = {
    type: "distributor",
    name,
    configSchema: z.object({ channel: z.string().optional() }),
    async render(input) {
      return { action: "record", request: input };
    },
    async send(rendered, config, context) {
      const failure = failures.shift();
      if (failure)
        throw new PluginError(failure.message, { code: "TEST_CHANNEL", retryable: failure.retryable });
      deliveries.push({
        input: rendered.request,
        config,
        idempotencyKey: context.idempotencyKey,
        jobId: context.jobId,
      });
      return { reference: { kind: "test-message", id: String(deliveries.length) } };
    },
  };
  return {
    plugin,
    deliveries,
    failNext(count: number, retryable: boolean, message = "The test channel refused the message.") {
      for (let i = 0; i < count; i++) failures.push({ retryable, message });
    },
    reset() {
      deliveries.length = 0;
      failures.length = 0;
    },
  };
}

/** A transform that always fails, as a broken step would. */
export const failingTransform: TransformerPlugin<{ reason?: string }> = {
  type: "transformer",
  name: "@test/fail",
  configSchema: z.object({ reason: z.string().optional() }),
  async transform(_input, config) {
    throw new PluginError(config.reason ?? "This transform always fails.", { code: "TEST_FAILURE" });
  },
};

/** A transform that waits, so a test can catch a job mid-step. */
export const slowTransform: TransformerPlugin<{ ms: number }> = {
  type: "transformer",
  name: "@test/slow",
  configSchema: z.object({ ms: z.number().int().min(0).max(60_000) }),
  async transform(input, config, context) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, config.ms);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(context.signal.reason);
      });
    });
    return { slept: config.ms, ...(input as object) };
  },
};
