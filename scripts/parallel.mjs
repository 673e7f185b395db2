#!/usr/bin/env node
// Runs the commands it is given side by side, as many at once as the machine has cores, and prints each one's
// output whole when it ends, with how long it took. Exits non-zero when any command failed. The gate's checks
// (lint, each type check, the builds) share no state, so on two cores they take half the time one after another.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('Usage: node scripts/parallel.mjs "<command>" ["<command>" ...]');
  process.exit(2);
}

/** @param {string} command */
function run(command) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const outcome = code === 0 ? "ok" : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(
        `\n== ${command}: ${outcome} in ${seconds} s\n${Buffer.concat(output).toString()}`,
      );
      resolve(code === 0);
    });
  });
}

const queue = [...commands];
const results = [];
const lanes = Array.from({ length: Math.min(availableParallelism(), commands.length) }, async () => {
  for (let command = queue.shift(); command !== undefined; command = queue.shift()) {
    results.push(await run(command));
  }
});
await Promise.all(lanes);
process.exit(results.every(Boolean) ? 0 : 1);
