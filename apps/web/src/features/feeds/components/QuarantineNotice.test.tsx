// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { QuarantineNotice } from "./QuarantineNotice";

afterEach(cleanup);

describe("QuarantineNotice", () => {
  it("tells the owner the feed is hidden and where each credential sits, in words", () => {
    render(
      <QuarantineNotice
        quarantine={{
          findings: [
            {
              path: "outputs.stream.distribute.0.config.botToken",
              message: "This looks like a Telegram bot token; use a {{PLACEHOLDER}} instead.",
            },
          ],
        }}
      />,
    );
    const notice = screen.getByTestId("feed-quarantine");
    expect(notice.textContent).toContain("Hidden and paused");
    expect(notice.textContent).toContain("Rotate the credential");
    const items = screen.getAllByRole("listitem").map((item) => item.textContent);
    expect(items).toHaveLength(1);
    expect(items[0]).toContain("Telegram bot token");
    expect(items[0]).not.toContain("outputs.stream.distribute.0.config");
  });
});
