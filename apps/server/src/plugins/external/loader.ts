import { createHash } from "node:crypto";
import { entryPointRefusal } from "@curate/core";
import { z } from "zod";
import { outboundFetch } from "../../clients/outbound.ts";
import type { Database } from "../../db/index.ts";
import { readBodyUpTo } from "../../http/bounded-body.ts";
import { configProblems } from "../json-schema.ts";
import { findPluginByName } from "../registry-service.ts";
import { type Plugin, PluginError } from "../types.ts";
import { callInSandbox, type HostFetch, type SandboxLimits } from "./sandbox.ts";

export interface ExternalPluginSettings {
  db: Database;
  /** `PLUGIN_ALLOWED_HOSTS`: hosts (`name` or `name:port`) entry points may come from; empty = none. */
  allowedHosts: readonly string[];
  /** `PRIVATE_HOSTS_ALLOWED`: non-public hosts a plugin's own requests may still reach. */
  privateHostsAllowed: readonly string[];
  limits: SandboxLimits;
  /** How long a fetched entry point is trusted before it is fetched again (a changed file is a new version). */
  codeTtlMs?: number;
}

/** A registered plugin's code as it runs: the module text and its version (the sha-256 of that text). */
interface LoadedCode {
  code: string;
  version: string;
  fetchedAt: number;
}

export type ExternalPlugin = Plugin & { version: string };

export interface ExternalPlugins {
  /**
   * The registered plugin a step names, loaded and ready to run isolated; null when none has that name, and always
   * for a built-in's name, alias or short name (decision 0022).
   */
  resolve(name: string): Promise<ExternalPlugin | null>;
}

const MAX_CODE_BYTES = 1_000_000;
const MAX_RESPONSE_BYTES = 1_000_000;
const MAX_FETCHES_PER_CALL = 20;
const FETCH_TIMEOUT_MS = 10_000;

/** Every host a config names in a URL-valued string: the only hosts the plugin's own requests may reach. */
export function hostsNamedIn(config: unknown): string[] {
  const hosts = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 20) return;
    if (typeof value === "string") {
      try {
        const url = new URL(value);
        if (url.protocol === "http:" || url.protocol === "https:") hosts.add(url.host.toLowerCase());
      } catch {
        // Not a URL: names no host.
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (value && typeof value === "object") {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(config, 0);
  return [...hosts];
}

/** The host name of an allow-list entry written `name` or `name:port` (`[::1]:8080` too). */
function hostnameOf(entry: string): string {
  try {
    return new URL(`http://${entry}`).hostname;
  } catch {
    return entry;
  }
}

async function readCapped(response: Response, max: number): Promise<string> {
  const bytes = await readBodyUpTo(response, max);
  if (!bytes) throw new Error(`the answer is larger than ${max} bytes`);
  return bytes.toString("utf8");
}

/** The plugin's door outward: only hosts its config names, public addresses only, bounded in count and size. */
function hostFetchFor(config: unknown, privateHostsAllowed: readonly string[]): HostFetch {
  const named = hostsNamedIn(config);
  const send = outboundFetch(privateHostsAllowed);
  let calls = 0;
  return async (raw, init) => {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Error(`scheme not allowed: ${url.protocol}`);
    if (!named.includes(url.host.toLowerCase())) throw new Error(`host not allowed: ${url.host}`);
    calls += 1;
    if (calls > MAX_FETCHES_PER_CALL)
      throw new Error(`more than ${MAX_FETCHES_PER_CALL} requests in one call`);
    const response = await send(url, {
      method: init.method ?? "GET",
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return {
      status: response.status,
      headers,
      body: await readCapped(response, MAX_RESPONSE_BYTES),
    };
  };
}

export function createExternalPlugins(settings: ExternalPluginSettings): ExternalPlugins {
  const codeTtlMs = settings.codeTtlMs ?? 60_000;
  const byUrl = new Map<string, LoadedCode>();
  // Entry points come from hosts the operator chose (`name` or `name:port`), which may be on a private network.
  const fetchCode = outboundFetch([
    ...settings.privateHostsAllowed,
    ...settings.allowedHosts.map(hostnameOf),
  ]);

  async function load(entryPoint: string): Promise<LoadedCode> {
    const cached = byUrl.get(entryPoint);
    if (cached && Date.now() - cached.fetchedAt < codeTtlMs) return cached;
    let code: string;
    try {
      const response = await fetchCode(entryPoint, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) {
        throw new PluginError(`Fetching the plugin's entry point answered ${response.status}.`, {
          code: "PLUGIN_UNAVAILABLE",
          retryable: response.status >= 500 || response.status === 429,
        });
      }
      code = await readCapped(response, MAX_CODE_BYTES);
    } catch (err) {
      if (err instanceof PluginError) throw err;
      throw new PluginError(`The plugin's entry point could not be fetched: ${(err as Error).message}`, {
        code: "PLUGIN_UNAVAILABLE",
        retryable: true,
        cause: err,
      });
    }
    const version = createHash("sha256").update(code).digest("hex");
    const loaded = { code, version, fetchedAt: Date.now() };
    byUrl.set(entryPoint, loaded);
    return loaded;
  }

  return {
    async resolve(name) {
      const row = await findPluginByName(settings.db, name);
      if (!row) return null;
      if (row.secretFindings?.length) {
        throw new PluginError(
          `"${row.name}" does not run while its registration holds what looks like a raw credential (${row.secretFindings
            .map((finding) => finding.path)
            .join(", ")}): its registrant must replace it with a {{PLACEHOLDER}}.`,
          { code: "PLUGIN_QUARANTINED" },
        );
      }
      const refusal = entryPointRefusal(row.entryPoint, settings.allowedHosts);
      if (refusal) throw new PluginError(refusal, { code: "PLUGIN_HOST_NOT_ALLOWED" });
      if (row.type !== "transformer" && row.type !== "distributor") {
        throw new PluginError(
          `"${row.name}" is a ${row.type}; only transformers and distributors run in a pipeline.`,
          {
            code: "WRONG_PLUGIN_TYPE",
          },
        );
      }
      const { code, version } = await load(row.entryPoint);
      const schema = row.schemaDefinition;
      const configSchema = z.unknown().superRefine((config, ctx) => {
        if (!schema) return;
        for (const problem of configProblems(schema, config)) {
          ctx.addIssue({
            code: "custom",
            path: problem.path ? problem.path.split(".") : [],
            message: problem.message,
          });
        }
      });
      const call = (exportName: string, args: unknown[], config: unknown) =>
        callInSandbox({
          code,
          filename: row.entryPoint,
          exportName,
          args,
          limits: settings.limits,
          hostFetch: hostFetchFor(config, settings.privateHostsAllowed),
        });
      if (row.type === "transformer") {
        return {
          name: row.name,
          type: "transformer",
          version,
          configSchema,
          transform: (input, config) => call("transform", [input, config], config),
        };
      }
      return {
        name: row.name,
        type: "distributor",
        version,
        configSchema,
        render: async (input, config) => ({
          action: "distribute",
          request: await call("render", [input, config], config),
        }),
        send: async (rendered, config) =>
          (await call("send", [rendered.request, config], config)) as Record<string, unknown>,
      } as ExternalPlugin;
    },
  };
}
