// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CopyButton } from "./copy-button";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function stubClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
}

describe("CopyButton", () => {
  it("copies the text, says Copied (to screen readers too), then goes back to Copy", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => undefined);
    stubClipboard(writeText);
    render(<CopyButton text='{"a":1}' what="input" />);

    fireEvent.click(screen.getByRole("button", { name: "Copy input" }));
    await act(async () => undefined);
    expect(writeText).toHaveBeenCalledWith('{"a":1}');
    expect(screen.getByRole("button", { name: "Copied input" }).textContent).toBe("Copied");

    await act(async () => vi.advanceTimersByTime(2000));
    expect(screen.getByRole("button", { name: "Copy input" })).toBeTruthy();
  });

  it("says so when the browser refuses to copy", async () => {
    stubClipboard(async () => {
      throw new Error("denied");
    });
    document.execCommand = vi.fn(() => false);
    render(<CopyButton text="x" what="output" />);
    fireEvent.click(screen.getByRole("button", { name: "Copy output" }));
    expect(await screen.findByRole("button", { name: "Copy failed output" })).toBeTruthy();
  });

  it("has nothing to copy from an empty pane", () => {
    render(<CopyButton text="" what="output" />);
    expect(screen.getByRole("button", { name: "Copy output" })).toHaveProperty("disabled", true);
  });
});
