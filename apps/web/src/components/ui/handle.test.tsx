// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Handle } from "./handle";
import { PlatformIcon, PlatformLabel } from "./platform-icon";

afterEach(cleanup);

describe("Handle", () => {
  it("shows an X handle bare, linking to its profile in a new tab", () => {
    render(<Handle handleKey="alice" />);
    const link = screen.getByRole("link", { name: "@alice" });
    expect(link.getAttribute("href")).toBe("https://x.com/alice");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("leads another network's handle with that network's labelled mark", () => {
    render(<Handle handleKey="mastodon:bob@fosstodon.org" />);
    const link = screen.getByRole("link", { name: "Mastodon @bob@fosstodon.org" });
    expect(link.getAttribute("href")).toBe("https://fosstodon.org/@bob");
  });

  it("links nowhere when the network has no profile for the name", () => {
    render(
      <>
        <Handle handleKey="telegram:Dana" />
        <Handle platform="rss" handle="Jane Doe" />
      </>,
    );
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getAllByTestId("handle").map((handle) => handle.textContent?.trim())).toEqual([
      "@Dana",
      "Jane Doe",
    ]);
  });

  it("takes another address, and can leave the mark out where the network is named beside it", () => {
    render(<Handle platform="bluesky" handle="carol.bsky.social" icon={false} href="https://bsky.app/x" />);
    const link = screen.getByRole("link", { name: "@carol.bsky.social" });
    expect(link.getAttribute("href")).toBe("https://bsky.app/x");
  });
});

describe("PlatformIcon", () => {
  it("is read out as the network's name, or not at all when decorative", () => {
    render(
      <>
        <PlatformIcon platform="telegram" />
        <PlatformIcon platform="rss" decorative />
        <PlatformLabel platform="bluesky" />
      </>,
    );
    expect(screen.getAllByRole("img").map((icon) => icon.getAttribute("aria-label"))).toEqual(["Telegram"]);
    expect(screen.getByTestId("platform-label").textContent).toBe("Bluesky");
  });
});
