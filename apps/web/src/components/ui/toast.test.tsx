// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Toaster, toast } from "./toast";

afterEach(cleanup);

describe("toasts", () => {
  it("render nothing until the first toast, then show it", async () => {
    const { container } = render(<Toaster />);
    expect(container.innerHTML).toBe("");

    act(() => toast.success("Saved the feed"));
    expect(await screen.findByText("Saved the feed")).toBeTruthy();
  });
});
