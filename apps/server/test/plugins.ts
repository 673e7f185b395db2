import pino from "pino";
import { z } from "zod";
import { hydrateSecrets, secretSource } from "../src/plugins/placeholders.ts";
import {
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type TransformerPlugin,
} from "../src/plugins/types.ts";

/** A step's context as the runner gives it to a distribution. */
export function distributionContext(overrides: Partial<PluginContext> = {}): PluginContext {
  return {
    signal: AbortSignal.timeout(15_000),
    logger: pino({ level: "silent" }),
    feedId: "feed",
    submissionId: "1900000000000000001",
    jobId: "00000000-0000-4000-8000-000000000001",
    idempotencyKey: "a".repeat(64),
    ...overrides,
  };
}

/**
 * A config as a plugin receives it: checked by its schema, then its secret fields filled from `server` (the
 * environment) and `feed` (the feed's own secrets), as the runner does.
 */
export function stepConfig<C>(
  plugin: DistributorPlugin<C>,
  config: unknown,
  secrets: { server?: Record<string, string>; feed?: Record<string, string> } = {},
): C {
  return hydrateSecrets(
    plugin.configSchema.parse(config),
    plugin.configSchema,
    secretSource(secrets.server ?? {}, secrets.feed ?? {}),
  );
}

/** Renders, then sends exactly what was rendered, as the runner does; returns both. */
export async function distribute<C>(
  plugin: DistributorPlugin<C>,
  input: unknown,
  config: C,
  context: PluginContext = distributionContext(),
) {
  const rendered = await plugin.render(input, config, context);
  const receipt = await plugin.send(rendered, config, context);
  return { rendered, receipt };
}

/** The error a promise rejects with (the test fails if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<PluginError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof PluginError)) throw outcome.error;
  return outcome.error;
}

export interface RecordedDelivery {
  input: unknown;
  config: unknown;
  idempotencyKey: string | null;
  jobId: string;
  /** The reference id of the delivery a re-run edited, for an edit. */
  edited?: string;
}

/**
 * A local distributor that records what it receives, and edits its earlier delivery on a re-run (as a channel
 * that can edit a message does). `failNext` makes the next deliveries fail (retryable or not), as a channel that is
 * down or refuses would.
 */
export function recordingDistributor(name = "@test/recorder") {
  const deliveries: RecordedDelivery[] = [];
  const failures: Array<{ retryable: boolean; message: string }> = [];
  const plugin: DistributorPlugin<{ channel?: string }> = {
    type: "distributor",
    name,
    configSchema: z.object({ channel: z.string().optional() }),
    async render(input, _config, context) {
      return context.replay
        ? { action: "edit", request: input, edits: true }
        : { action: "record", request: input };
    },
    async send(rendered, config, context) {
      const failure = failures.shift();
      if (failure)
        throw new PluginError(failure.message, { code: "TEST_CHANNEL", retryable: failure.retryable });
      const edited = rendered.edits ? context.replay?.receipt.reference?.id : undefined;
      deliveries.push({
        input: rendered.request,
        config,
        idempotencyKey: context.idempotencyKey,
        jobId: context.jobId,
        ...(edited ? { edited } : {}),
      });
      return edited
        ? { edited: true, reference: { kind: "test-message", id: edited } }
        : { reference: { kind: "test-message", id: String(deliveries.length) } };
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
