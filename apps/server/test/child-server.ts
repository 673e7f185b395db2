import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface ChildServer {
  process: ChildProcess;
  output: string[];
  /** Resolves when a log line matching `pattern` has been written (or rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** How many log lines match `pattern` so far. */
  count(pattern: RegExp): number;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** The real server as its own process (`serve`, or `serve --role=…`), the way an operator runs it. */
export function startChildServer(args: string[], env: Record<string, string>): ChildServer {
  const child = spawn(process.execPath, ["apps/server/src/main.ts", "serve", ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      // A test server's answers are checked against their routes' contracts, like the in-process ones'.
      ...((env.NODE_ENV ?? "test") === "test" ? { CHECK_RESPONSE_CONTRACTS: "true" } : {}),
      LOG_LEVEL: "info",
      SEED_DEMO_DATA: "false",
      PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let partial = "";
  // A log line can arrive in several chunks: only whole lines are matched.
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line) continue;
      output.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  return {
    process: child,
    output,
    // Only stops a child that never says it: a busy machine can take minutes to start one.
    waitFor(pattern, timeoutMs = 300_000) {
      const seen = output.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no log line matching ${pattern} in ${timeoutMs} ms:\n${output.slice(-30).join("\n")}`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
    count: (pattern) => output.filter((line) => pattern.test(line)).length,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(force);
    },
  };
}
