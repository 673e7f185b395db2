import sparticuzChromium from "@sparticuz/chromium";

/**
 * The browser the journeys and `bench:web` drive: the Chromium inside the `@sparticuz/chromium` npm package
 * (unpacked to the temp folder on first use, nothing downloaded), so `npm ci && npm test` needs nothing else on the
 * machine. `CHROMIUM_PATH` points at another Chromium instead.
 */
export async function chromiumExecutable(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH?.trim();
  return chosen ? chosen : sparticuzChromium.executablePath();
}

// Without the networking flags Chromium tries to reach the internet at start and stalls.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-dev-shm-usage",
];
