import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The server process guards its global fetch (libraries such as the NEAR SDK send with it). Installing that guard
 * changes the whole process, so it is tried in a process of its own, as `serve` installs it.
 */
const OUTBOUND = fileURLToPath(new URL("./outbound.ts", import.meta.url));
const run = promisify(execFile);
let port = 0;
let work = "";
const server = createServer((_request, response) => response.end("reached"));

beforeAll(async () => {
  // Both families on one port, so a name and every spelling of loopback reach the same server when allowed.
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  port = (server.address() as AddressInfo).port;
  work = mkdtempSync(join(tmpdir(), "curate-process-fetch-"));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

/** What the global fetch answers for each address once the guard is installed with these settings. */
async function globalFetchAfterGuard(configured: string[], privateHostsAllowed: string[], urls: string[]) {
  const script = join(work, `probe-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    script,
    `import { guardProcessFetch } from ${JSON.stringify(OUTBOUND)};
guardProcessFetch(${JSON.stringify(configured)}, ${JSON.stringify(privateHostsAllowed)});
const outcomes = [];
for (const url of ${JSON.stringify(urls)}) {
  try {
    outcomes.push(await (await fetch(url)).text());
  } catch (error) {
    outcomes.push(String(error.cause?.code ?? error.cause?.message ?? error.message));
  }
}
console.log(JSON.stringify(outcomes));
`,
  );
  const { stdout } = await run(process.execPath, ["--import", "tsx", script], { timeout: 120_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as string[];
}

describe("the server process's global fetch", () => {
  it("reaches configured hosts and PRIVATE_HOSTS_ALLOWED anywhere, and no other non-public address", async () => {
    const configured = `http://127.0.0.1:${port}`;
    const outcomes = await globalFetchAfterGuard(
      [configured],
      ["localhost"],
      [
        `${configured}/`,
        `http://localhost:${port}/`,
        `http://[::1]:${port}/`,
        `http://[::ffff:7f00:1]:${port}/`,
        `http://0.0.0.0:${port}/`,
      ],
    );
    expect(outcomes).toEqual(["reached", "reached", "ENONPUBLIC", "ENONPUBLIC", "ENONPUBLIC"]);
  });

  it("refuses a name that resolves to loopback when the operator did not allow it", async () => {
    const outcomes = await globalFetchAfterGuard(
      [`http://127.0.0.1:${port}`],
      [],
      [`http://localhost:${port}/`],
    );
    expect(outcomes).toEqual(["ENONPUBLIC"]);
  });
});
