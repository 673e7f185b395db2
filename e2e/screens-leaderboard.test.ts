import { describe, expect, it } from "vitest";
import { browserSession, PHONE } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

describe("the leaderboard's address", () => {
  it("drops a feed that does not exist instead of keeping it", async () => {
    const { page } = await session.visit("/leaderboard?feed=bogus");
    await page.getByTestId("leaderboard-row").first().waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get("feed")).toBeNull();
    expect(await page.getByLabel("Feed", { exact: true }).inputValue()).toBe("all feeds");
  });

  it("matches a feed id case-insensitively and writes it lower-case", async () => {
    const { page } = await session.visit("/leaderboard?feed=NEAR");
    await page.getByTestId("leaderboard-row").first().waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get("feed")).toBe("near");
    expect(await page.getByLabel("Feed", { exact: true }).inputValue()).toBe("near");
  });
});

describe("Top Feeds counts", () => {
  it('say what "14 / 38" means', async () => {
    const { page } = await session.visit("/leaderboard");
    const count = page.getByTestId("leaderboard-table").getByTestId("feed-share-count").first();
    await count.waitFor();
    expect(await page.getByRole("columnheader", { name: "Top Feeds" }).textContent()).toContain(
      "curator's / all submissions in the feed",
    );
    expect(await count.textContent()).toMatch(/^\d+ of the \d+ submissions in the feed\d+ \/ \d+$/);
  });

  it("are labelled on a phone too", async () => {
    const { page } = await session.visit("/leaderboard", PHONE);
    const card = page.getByTestId("leaderboard-card").first();
    await card.waitFor();
    expect(await card.textContent()).toContain("curator's / all submissions in the feed");
  });
});
