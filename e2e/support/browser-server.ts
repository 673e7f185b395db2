import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumExecutable } from "./chromium.ts";

/**
 * A journey worker's browser, in a process of its own (started by global-setup.ts): Playwright's side of every
 * page's traffic runs here, not in the test run's main process, whose one event loop also serves the workers and
 * the fakes. Prints the endpoint files connect to, and closes the browser when told to stop or when the run that
 * started it goes away (its stdin closes).
 */
const server = await chromium.launchServer({
  executablePath: await chromiumExecutable(),
  args: CHROMIUM_ARGS,
  handleSIGINT: false,
  handleSIGTERM: false,
});
let closing = false;
const close = () => {
  if (closing) return;
  closing = true;
  void server.close().finally(() => process.exit(0));
};
process.once("SIGTERM", close);
process.once("SIGINT", close);
process.stdin.on("end", close);
process.stdin.resume();
process.stdout.write(`${server.wsEndpoint()}\n`);
