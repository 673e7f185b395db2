// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Button } from "./button";

afterEach(cleanup);

describe("Button loading", () => {
  it("is disabled and busy while loading, keeps its accessible name and shows the spinner", () => {
    render(
      <Button loading>
        <svg data-testid="icon" />
        Save Changes
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Save Changes" });
    expect(button).toHaveProperty("disabled", true);
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button.querySelector("svg[data-spinner]")).not.toBeNull();
  });

  it("is an ordinary button otherwise", () => {
    render(<Button>Save Changes</Button>);
    const button = screen.getByRole("button", { name: "Save Changes" });
    expect(button).toHaveProperty("disabled", false);
    expect(button.getAttribute("aria-busy")).toBeNull();
    expect(button.querySelector("svg")).toBeNull();
  });
});
