/** A worker process for bench:processing: the real worker role plus the bench's no-op distributor. */
import { loadEnv } from "../apps/server/src/config/env.ts";
import { openDatabase } from "../apps/server/src/db/index.ts";
import { createChangeNotifier } from "../apps/server/src/http/changes.ts";
import { createIntake } from "../apps/server/src/intake/runtime.ts";
import { createLogger } from "../apps/server/src/logger.ts";
import { createTelemetry } from "../apps/server/src/telemetry/telemetry.ts";
import { startWorker } from "../apps/server/src/worker/host.ts";
import { noopDistributor } from "./processing-setup.ts";

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const database = await openDatabase({ url: env.DATABASE_URL ?? "" });
const telemetry = createTelemetry();
const intake = createIntake(database.db, env, logger, {
  telemetry,
  notifyChanged: createChangeNotifier().notify,
});
const worker = await startWorker({
  database,
  env,
  intake,
  logger,
  telemetry,
  extraPlugins: [noopDistributor],
});
process.stdout.write("worker ready\n");
process.once("SIGTERM", () => {
  worker.stop().then(() => database.close().then(() => process.exit(0)));
});
