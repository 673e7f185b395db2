import ivm from "isolated-vm";
import { PluginError } from "../types.ts";

/**
 * One call of an external plugin, in its own V8 isolate (decision 0012): a fresh heap with a memory limit, no
 * Node APIs (no process, require, filesystem, timers or sockets), nothing of the server's memory, and no other
 * plugin's state. What crosses the boundary is copied JSON: the config and input in, the result out. Its only
 * door outward is `fetch`, a host function that asks `hostFetch`, which decides which hosts are reachable.
 */

export interface SandboxLimits {
  /** Heap of the isolate, in MB (isolated-vm's minimum is 8). */
  memoryLimitMb: number;
  /** Wall-clock time of the whole call, CPU and awaited fetches alike. */
  timeoutMs: number;
}

export interface HostResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type HostFetch = (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<HostResponse>;

// Runs in the isolate before the plugin: `fetch` over the host function, which stays inside this function's
// closure (a top-level binding of a script would be visible to the plugin's module) and leaves the global scope.
// A console that prints nothing keeps plugins that log from failing.
const PRELUDE = `
(() => {
const hostFetch = globalThis.__hostFetch;
delete globalThis.__hostFetch;
globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
globalThis.fetch = async (url, init = {}) => {
  const request = JSON.stringify({
    method: init.method,
    headers: init.headers,
    body: typeof init.body === "string" ? init.body : undefined,
  });
  const raw = await hostFetch.apply(undefined, [String(url), request], { result: { promise: true } });
  const response = JSON.parse(raw);
  if (response.error) throw new TypeError(response.error);
  return {
    ok: response.status >= 200 && response.status < 300,
    status: response.status,
    headers: response.headers,
    text: async () => response.body,
    json: async () => JSON.parse(response.body),
  };
};
})();
`;

function sandboxError(err: unknown, limits: SandboxLimits): PluginError {
  const message = err instanceof Error ? err.message : String(err);
  if (/memory limit/i.test(message)) {
    return new PluginError(
      `The plugin used more than ${limits.memoryLimitMb} MB of memory and was stopped.`,
      {
        code: "PLUGIN_MEMORY_LIMIT",
      },
    );
  }
  if (/timed out|disposed/i.test(message)) {
    return new PluginError(`The plugin ran longer than ${limits.timeoutMs} ms and was stopped.`, {
      code: "PLUGIN_TIMEOUT",
    });
  }
  return new PluginError(`The plugin failed: ${message}`, { code: "PLUGIN_FAILED", cause: err });
}

/** Calls the module's export `exportName` with JSON copies of `args`; resolves with a JSON copy of its result. */
export async function callInSandbox(options: {
  code: string;
  filename: string;
  exportName: string;
  args: unknown[];
  limits: SandboxLimits;
  hostFetch: HostFetch;
}): Promise<unknown> {
  const { limits } = options;
  const isolate = new ivm.Isolate({ memoryLimit: limits.memoryLimitMb });
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  try {
    const context = await isolate.createContext();
    await context.global.set(
      "__hostFetch",
      new ivm.Reference(async (url: string, request: string) => {
        try {
          return JSON.stringify(await options.hostFetch(url, JSON.parse(request)));
        } catch (err) {
          return JSON.stringify({ error: err instanceof Error ? err.message : String(err) });
        }
      }),
    );
    await context.eval(PRELUDE, { timeout: limits.timeoutMs });
    const module = await isolate.compileModule(options.code, { filename: options.filename });
    await module.instantiate(context, (specifier) => {
      throw new Error(`a plugin cannot import "${specifier}"`);
    });
    const call = (async () => {
      await module.evaluate({ timeout: limits.timeoutMs });
      const exported = await module.namespace.get(options.exportName, { reference: true });
      if (exported.typeof !== "function") {
        throw new PluginError(`The plugin's module exports no function "${options.exportName}".`, {
          code: "PLUGIN_INVALID",
        });
      }
      const result = await exported.apply(
        undefined,
        options.args.map((arg) => new ivm.ExternalCopy(arg ?? null).copyInto()),
        { timeout: limits.timeoutMs, result: { promise: true, copy: true } },
      );
      return result as unknown;
    })();
    // The isolate's own timeout counts CPU only; a plugin awaiting forever is stopped by the clock.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        if (!isolate.isDisposed) isolate.dispose();
        reject(new Error("Script execution timed out."));
      }, limits.timeoutMs);
    });
    return await Promise.race([call, deadline]);
  } catch (err) {
    if (err instanceof PluginError) throw err;
    throw sandboxError(timedOut ? new Error("Script execution timed out.") : err, limits);
  } finally {
    clearTimeout(timer);
    if (!isolate.isDisposed) isolate.dispose();
  }
}
