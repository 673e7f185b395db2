// @vitest-environment jsdom
import { curatorFields, type Submission } from "@curate/core";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SubmissionCard } from "./SubmissionCard";

afterEach(cleanup);

const base: Submission = {
  tweetId: "1890000000000000001",
  platform: "twitter",
  userId: "1",
  username: "alice",
  authorDisplayName: null,
  authorProfileImage: null,
  content: "A post worth reading",
  url: "https://x.com/alice/status/1890000000000000001",
  media: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
  curatorId: "2",
  curatorUsername: "bob",
  ...curatorFields("bob"),
  curatorNotes: null,
  curatorTweetId: "1890000000000000002",
  submittedAt: "2026-11-20T11:00:00.000Z",
  status: "pending",
  feeds: [],
  moderationHistory: [],
};

async function renderCard(submission: Submission) {
  const rootRoute = createRootRoute({ component: () => <SubmissionCard submission={submission} /> });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory() });
  render(<RouterProvider router={router} />);
  return screen.findByTestId("submission-card");
}

describe("SubmissionCard", () => {
  it("names an X post's network and links to the post and to the curator's reply", async () => {
    const card = await renderCard(base);
    expect(within(card).getByTestId("platform-label").textContent).toBe("X");
    const original = within(card).getByRole("link", { name: "View on X" });
    expect(original.getAttribute("href")).toBe(base.url);
    expect(original.getAttribute("rel")).toBe("noopener noreferrer");
    expect(original.getAttribute("target")).toBe("_blank");
    expect(within(card).getByRole("link", { name: "@alice" }).getAttribute("href")).toBe(
      "https://x.com/alice",
    );
    expect(within(card).getByRole("link", { name: "@bob" }).getAttribute("href")).toBe(
      "https://x.com/bob/status/1890000000000000002",
    );
  });

  it("shows a Bluesky post with its author's name, network and profile, and its curator's network", async () => {
    const card = await renderCard({
      ...base,
      tweetId: "bluesky:at://did:plc:abc/app.bsky.feed.post/3l2k",
      platform: "bluesky",
      username: "carol.bsky.social",
      authorDisplayName: "Carol",
      url: "https://bsky.app/profile/carol.bsky.social/post/3l2k",
      curatorUsername: "bluesky:dan.bsky.social",
      ...curatorFields("bluesky:dan.bsky.social"),
      curatorTweetId: "bluesky:at://did:plc:dan/app.bsky.feed.post/9x",
    });
    expect(card.getAttribute("data-platform")).toBe("bluesky");
    expect(within(card).getByRole("article").getAttribute("aria-label")).toBe("Post by @carol.bsky.social");
    expect(within(card).getByText("Carol")).toBeTruthy();
    expect(within(card).getByTestId("platform-label").textContent).toBe("Bluesky");
    expect(within(card).getByRole("link", { name: "View on Bluesky" }).getAttribute("href")).toBe(
      "https://bsky.app/profile/carol.bsky.social/post/3l2k",
    );
    expect(within(card).getByRole("link", { name: "@carol.bsky.social" }).getAttribute("href")).toBe(
      "https://bsky.app/profile/carol.bsky.social",
    );
    expect(within(card).getByRole("link", { name: "Bluesky @dan.bsky.social" }).getAttribute("href")).toBe(
      "https://bsky.app/profile/dan.bsky.social",
    );
  });

  it("shows a Mastodon curator as their handle on Mastodon, with its mark and profile, never the stored key", async () => {
    const card = await renderCard({
      ...base,
      curatorUsername: "mastodon:mo@social.example",
      ...curatorFields("mastodon:mo@social.example"),
      curatorTweetId: "mastodon:https://social.example/users/mo/statuses/1",
    });
    const curator = within(card).getByRole("link", { name: "Mastodon @mo@social.example" });
    expect(curator.getAttribute("href")).toBe("https://social.example/@mo");
    expect(curator.querySelector("[data-platform='mastodon']")).not.toBeNull();
    expect(card.textContent).not.toContain("mastodon:");
  });

  it("names the site a blog post comes from rather than RSS", async () => {
    const card = await renderCard({
      ...base,
      tweetId: "rss:https://www.carbonandcode.org/posts/grid",
      platform: "rss",
      username: "Hana Sato",
      url: "https://www.carbonandcode.org/posts/grid",
      ...curatorFields("telegram:tg_cur"),
      curatorUsername: "telegram:tg_cur",
      curatorTweetId: null,
    });
    expect(within(card).getByTestId("original-post-link").textContent).toBe("View on carbonandcode.org");
    expect(within(card).queryByText(/View on RSS/)).toBeNull();
    // A Telegram curator shows as @tg_cur with Telegram's mark: no "telegram:" prefix.
    expect(within(card).getByRole("link", { name: "Telegram @tg_cur" }).getAttribute("href")).toBe(
      "https://t.me/tg_cur",
    );
    expect(card.textContent).not.toContain("telegram:");
  });

  it("never links an address a browser should not open, nor a post without one", async () => {
    const card = await renderCard({
      ...base,
      platform: "rss",
      username: "Jane Doe",
      url: "javascript:alert(1)",
      ...curatorFields(null),
      curatorUsername: null,
      curatorTweetId: null,
    });
    expect(within(card).queryByTestId("original-post-link")).toBeNull();
    expect(within(card).getByTestId("handle").textContent).toBe("Jane Doe");
    expect(
      within(card)
        .queryAllByRole("link")
        .map((link) => link.getAttribute("href")),
    ).not.toContain("javascript:alert(1)");
  });
});
