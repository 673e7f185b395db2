import { EnvError, loadEnv } from "./config/env.ts";
import { createLogger } from "./logger.ts";
import { startServer } from "./server.ts";

const USAGE = "Usage: curate serve";

async function main(argv: string[]) {
  const [command = "serve"] = argv;
  if (command !== "serve") {
    console.error(`Unknown command "${command}". ${USAGE}`);
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
  const server = await startServer(env, logger);
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
  console.error("Curate failed to start:", error);
  process.exit(1);
});
