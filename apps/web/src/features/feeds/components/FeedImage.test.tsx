// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FeedImage } from "./FeedImage";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("FeedImage", () => {
  it("shows the feed's initials instead of an image that fails to load", () => {
    const { container } = render(<FeedImage name="Solar Weekly" src="/uploads/gone.png" />);
    fireEvent.error(container.querySelector("img") as HTMLImageElement);
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe("SW");
  });

  it("falls back too for a server-rendered image that failed before the page's code ran", async () => {
    const html = renderToString(<FeedImage name="Solar Weekly" src="http://old-host:3000/uploads/a.png" />);
    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    // The browser already gave up on it: complete, with no picture. Its error event went unheard.
    vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(true);
    vi.spyOn(HTMLImageElement.prototype, "naturalWidth", "get").mockReturnValue(0);
    const root = await act(async () =>
      hydrateRoot(container, <FeedImage name="Solar Weekly" src="http://old-host:3000/uploads/a.png" />),
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe("SW");
    act(() => root.unmount());
    container.remove();
  });

  it("keeps an image that loaded", () => {
    vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(true);
    vi.spyOn(HTMLImageElement.prototype, "naturalWidth", "get").mockReturnValue(400);
    render(<FeedImage name="Solar Weekly" src="/uploads/fine.png" />);
    expect(screen.getByRole("presentation", { hidden: true }).getAttribute("src")).toBe("/uploads/fine.png");
  });
});
