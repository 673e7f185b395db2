// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UndoWindowAction } from "./UndoWindowAction";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const START = Date.parse("2026-11-27T12:00:00.000Z");

describe("UndoWindowAction", () => {
  it("offers Undo until the window closes, then goes", async () => {
    vi.useFakeTimers({ now: START });
    const onUndo = vi.fn();
    render(<UndoWindowAction until="2026-11-27T12:05:00.000Z" author="@ada" onUndo={onUndo} />);

    fireEvent.click(screen.getByRole("button", { name: "Undo the approval of the post by @ada" }));
    expect(onUndo).toHaveBeenCalledTimes(1);

    await act(async () => vi.advanceTimersByTime(4 * 60_000));
    expect(screen.getByTestId("undo-approval")).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(60_000));
    expect(screen.queryByTestId("undo-approval")).toBeNull();
  });

  it("offers nothing once the window has closed", () => {
    vi.useFakeTimers({ now: START });
    render(<UndoWindowAction until="2026-11-27T11:59:59.000Z" author="@ada" onUndo={() => undefined} />);
    expect(screen.queryByTestId("undo-approval")).toBeNull();
  });

  it("cannot be pressed twice while the undo is on its way", () => {
    vi.useFakeTimers({ now: START });
    render(<UndoWindowAction until="2026-11-27T12:05:00.000Z" author="@ada" busy onUndo={() => undefined} />);
    expect((screen.getByTestId("undo-approval") as HTMLButtonElement).disabled).toBe(true);
  });
});
