import { EnvError, loadEnv } from "./config/env.ts";
import { createLogger } from "./logger.ts";
import { ROLES, type Role, startServer } from "./server.ts";

const USAGE = `Usage: curate serve [--role=${ROLES.join("|")}]`;

function parseRole(args: string[]): Role | null {
  let role: Role = "all";
  for (const arg of args) {
    const value = /^--role=(.*)$/.exec(arg)?.[1];
    if (value === undefined || !(ROLES as readonly string[]).includes(value)) return null;
    role = value as Role;
  }
  return role;
}

async function main(argv: string[]) {
  const [command = "serve", ...args] = argv;
  const role = parseRole(args);
  if (command !== "serve" || role === null) {
    console.error(`Unknown command "${argv.join(" ")}". ${USAGE}`);
    process.exit(2);
  }
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(env.LOG_LEVEL);
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
  console.error("Curate failed to start:", error);
  process.exit(1);
});
