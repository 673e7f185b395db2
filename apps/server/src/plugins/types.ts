import type { Logger } from "pino";
import type { z } from "zod";

/**
 * A step's failure, said so that the owner knows what to fix. `retryable` is true only where asking again later
 * can help (rate limits, outages, timeouts): the engine backs off and retries those, and no others.
 */
export class PluginError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  constructor(message: string, options: { code: string; retryable?: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "PluginError";
    this.code = options.code;
    this.retryable = options.retryable ?? false;
  }
}

/** What a plugin is given besides its input and config. */
export interface PluginContext {
  /** Aborts when the step's time is up or the worker stops. */
  signal: AbortSignal;
  logger: Logger;
  feedId: string;
  submissionId: string | null;
  jobId: string;
  /**
   * Stable for one publication of a submission in a feed through one distributor branch: the same across
   * resumes and retries, new only for a deliberate new publication (reprocess, tweak). Null for transforms.
   */
  idempotencyKey: string | null;
}

interface PluginBase<Config> {
  /** The built-in short name (`rss`) or the external plugin's registered name. */
  name: string;
  configSchema: z.ZodType<Config>;
  /** Quick and local: no I/O and no side effect, so running it twice changes nothing (templates). */
  local?: boolean;
}

export interface TransformerPlugin<Config = unknown> extends PluginBase<Config> {
  type: "transformer";
  transform(input: unknown, config: Config, context: PluginContext): Promise<unknown>;
}

/** What a distributor published, stored as its step's output: the reference says where it went. */
export interface DistributionReceipt {
  reference?: { kind: string; id?: string; url?: string };
  [key: string]: unknown;
}

export interface DistributorPlugin<Config = unknown> extends PluginBase<Config> {
  type: "distributor";
  distribute(input: unknown, config: Config, context: PluginContext): Promise<DistributionReceipt>;
}

/** Any plugin, whatever its config type (the runner validates configs with each plugin's own schema). */
export type Plugin = TransformerPlugin<unknown> | DistributorPlugin<unknown>;
