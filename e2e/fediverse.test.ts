import type { AddressInfo } from "node:net";
import { MemoryKvStore } from "@fedify/fedify";
import { Accept } from "@fedify/vocab";
import { serve } from "@hono/node-server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFediverseReader, type FediverseReader } from "../apps/server/test/fakes/fediverse-reader.ts";
import { browserSession } from "./support/browser.ts";
import { signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const SHOTS = process.env.E2E_SCREENSHOT_DIR;
const session = browserSession(baseUrl);

/** Screenshots at 1440 and 375 px when E2E_SCREENSHOT_DIR is set (for looking at the screens, not asserted). */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

// A fediverse reader on another server of this machine (Fedify, in the test), who follows the feed.
let reader: FediverseReader;
let readerServer: ReturnType<typeof serve>;
let readerOrigin: string;

beforeAll(async () => {
  reader = createFediverseReader(new MemoryKvStore());
  readerServer = serve({
    fetch: (request) => reader.federation.fetch(request, { contextData: undefined }),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise<void>((resolve) => readerServer.once("listening", () => resolve()));
  readerOrigin = `http://127.0.0.1:${(readerServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => readerServer?.close(() => resolve()));
});

describe("fediverse", () => {
  it("the owner turns the fediverse on in the feed's settings, sees its handle, and a reader elsewhere follows it", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `fedi${Date.now().toString(36)}`;
    const created = await page.evaluate(async (id) => {
      const response = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id,
          name: "Solar Weekly",
          description: "The week in solar power",
          outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/activitypub", config: {} }] } },
        }),
      });
      return response.status;
    }, feedId);
    expect(created).toBe(201);

    await page.goto(`${baseUrl}/feed/${feedId}/settings/fediverse`);
    await page.getByRole("heading", { name: "Fediverse" }).first().waitFor();
    await page.getByRole("button", { name: "Turn on the fediverse" }).waitFor();
    await shoot(page, "fediverse-off");
    await page.getByRole("button", { name: "Turn on the fediverse" }).click();
    const host = new URL(baseUrl).host;
    const handle = page.getByTestId("fediverse-handle");
    await handle.waitFor();
    expect(await handle.textContent()).toBe(`@${feedId}@${host}`);
    const followers = page.getByRole("definition").first();
    expect(await followers.textContent()).toBe("0");

    // The reader follows the feed's actor, as a Mastodon user would after looking its handle up.
    const finger = await fetch(`${baseUrl}/.well-known/webfinger?resource=acct:${feedId}@${host}`);
    const self = ((await finger.json()) as { links: Array<{ rel: string; href: string }> }).links.find(
      (link) => link.rel === "self",
    );
    expect(self?.href).toBe(`${baseUrl}/ap/feeds/${feedId}`);
    await reader.follow(readerOrigin, "reader", self?.href as string);

    // The page shows the follower (it refreshes its numbers), and the reader gets the feed's Accept.
    await page.getByRole("definition").filter({ hasText: /^1$/ }).first().waitFor();
    const deadline = Date.now() + 60_000;
    while (!reader.received.some((activity) => activity instanceof Accept) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(reader.received.some((activity) => activity instanceof Accept)).toBe(true);
    // The stream already publishes to the fediverse: no hint to add the distributor.
    expect(await page.getByText("Publishing", { exact: true }).count()).toBe(0);
    await shoot(page, "fediverse-on");
    expect(pageErrors).toEqual([]);
  });
});
