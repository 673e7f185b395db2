import { ArchiveError } from "./backup/archive.ts";
import { exportTo, importFrom } from "./backup/cli.ts";
import { guardProcessFetch } from "./clients/outbound.ts";
import { EnvError, loadEnv } from "./config/env.ts";
import { createLogger } from "./logger.ts";
import { configuredBaseUrls, ROLES, type Role, startServer } from "./server.ts";

const USAGE = `Usage: curate serve [--role=${ROLES.join("|")}] | curate export <file> | curate import [--strict] <file>`;

function parseRole(args: string[]): Role | null {
  let role: Role = "all";
  for (const arg of args) {
    const value = /^--role=(.*)$/.exec(arg)?.[1];
    if (value === undefined || !(ROLES as readonly string[]).includes(value)) return null;
    role = value as Role;
  }
  return role;
}

function environment() {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(argv: string[]) {
  const [command = "serve", ...args] = argv;
  const strict = command === "import" && args[0] === "--strict";
  const files = strict ? args.slice(1) : args;
  if ((command === "export" || command === "import") && files.length === 1 && !files[0].startsWith("--")) {
    const env = environment();
    const { summary, notes } =
      command === "export"
        ? { summary: await exportTo(env, files[0]), notes: [] }
        : await importFrom(env, files[0], { strict, logger: createLogger(env.LOG_LEVEL) }).then(
            ({ summary, report }) => ({ summary, notes: report.notes }),
          );
    const rows = Object.values(summary.tables).reduce((total, count) => total + count, 0);
    console.log(
      `${command === "export" ? "Exported" : "Imported and checked"} ${rows} rows in ${Object.keys(summary.tables).length} tables and ${summary.uploads} uploads.`,
    );
    for (const note of notes) console.log(note);
    return;
  }
  const role = parseRole(args);
  if (command !== "serve" || role === null) {
    console.error(`Unknown command "${argv.join(" ")}". ${USAGE}`);
    process.exit(2);
  }
  const env = environment();
  const logger = createLogger(env.LOG_LEVEL);
  // This process is the server: libraries that send with the global fetch go through the outbound guard too.
  guardProcessFetch(configuredBaseUrls(env), env.PRIVATE_HOSTS_ALLOWED);
  const server = await startServer(env, logger, role);
  const shutdown = (signal: string) => {
    logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  if (error instanceof ArchiveError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error("Curate failed:", error);
  process.exit(1);
});
