// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DEBOUNCE_MS, SubmissionFilters } from "./SubmissionFilters";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("submission search box", () => {
  it("reports the search once, 300 ms after the last keystroke", () => {
    const onChange = vi.fn();
    render(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", platform: "all" }}
        onChange={onChange}
      />,
    );
    const box = screen.getByLabelText("Search submissions");

    fireEvent.change(box, { target: { value: "ne" } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(box, { target: { value: "near" } });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(onChange).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith({ q: "near" });
  });

  it("clears the search when the box is emptied", () => {
    const onChange = vi.fn();
    render(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", q: "near", platform: "all" }}
        onChange={onChange}
      />,
    );
    fireEvent.change(screen.getByLabelText("Search submissions"), { target: { value: "" } });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    expect(onChange).toHaveBeenCalledWith({ q: undefined });
  });

  it("shows a search changed elsewhere without reporting it back", () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", q: "near", platform: "all" }}
        onChange={onChange}
      />,
    );
    rerender(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", q: "ai", platform: "all" }}
        onChange={onChange}
      />,
    );
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2));
    expect(screen.getByLabelText<HTMLInputElement>("Search submissions").value).toBe("ai");
    expect(onChange).not.toHaveBeenCalled();
  });

  it("says what a search shorter than three characters matches, and only then", () => {
    const { rerender } = render(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", q: "@ze", platform: "all" }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByTestId("short-search-hint").textContent).toBe(
      "Showing posts by handles that start with “ze”. Type 3 or more characters to search the text of posts.",
    );
    rerender(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", q: "zei", platform: "all" }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.queryByTestId("short-search-hint")).toBeNull();
  });
});

describe("platform filter", () => {
  it("offers every network by its label, and reports the one chosen", () => {
    const onChange = vi.fn();
    render(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", platform: "all" }}
        onChange={onChange}
      />,
    );
    const select = screen.getByLabelText<HTMLSelectElement>("Platform");
    expect([...select.options].map((option) => [option.value, option.text])).toEqual([
      ["all", "All"],
      ["twitter", "X"],
      ["bluesky", "Bluesky"],
      ["mastodon", "Mastodon"],
      ["telegram", "Telegram"],
      ["rss", "RSS"],
    ]);
    fireEvent.change(select, { target: { value: "mastodon" } });
    expect(onChange).toHaveBeenCalledWith({ platform: "mastodon" });
  });

  it("shows the network the address names", () => {
    render(
      <SubmissionFilters
        filters={{ status: "all", sortOrder: "newest", platform: "telegram" }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByLabelText<HTMLSelectElement>("Platform").value).toBe("telegram");
  });
});
