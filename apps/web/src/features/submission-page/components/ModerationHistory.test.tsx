// @vitest-environment jsdom
import { type ModerationRecord, moderatorFields } from "@curate/core";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ModerationHistory } from "./ModerationHistory";

afterEach(cleanup);

const approval: ModerationRecord = {
  id: 7,
  submissionId: "1890000000000000001",
  feedId: "ai",
  moderatorAccountId: "amy.near",
  moderatorAccountIdType: "near",
  ...moderatorFields("amy.near", "near"),
  source: "ui",
  action: "approve",
  note: "worth it",
  retraction: false,
  createdAt: "2026-11-20T12:00:00.000Z",
  updatedAt: "2026-11-20T12:01:00.000Z",
};

describe("ModerationHistory", () => {
  it("shows approve, undo, approve as three entries, newest first, each with who and how", () => {
    const undo: ModerationRecord = {
      ...approval,
      action: "undo",
      undoes: 7,
      moderatorAccountId: "ben.near",
      ...moderatorFields("ben.near", "near"),
      note: null,
      createdAt: "2026-11-20T12:01:00.000Z",
      updatedAt: "2026-11-20T12:01:00.000Z",
    };
    const again: ModerationRecord = {
      ...approval,
      id: 9,
      moderatorAccountId: "carol",
      moderatorAccountIdType: "platform_username",
      ...moderatorFields("carol", "platform_username"),
      source: "platform_comment",
      note: null,
      createdAt: "2026-11-20T12:02:00.000Z",
      updatedAt: "2026-11-20T12:02:00.000Z",
    };
    render(<ModerationHistory history={[approval, undo, again]} />);
    const entries = within(screen.getByTestId("moderation-history")).getAllByTestId(
      "moderation-history-entry",
    );
    const lines = entries.map((entry) => entry.querySelector("p")?.textContent?.split(" · ")[0]);
    expect(lines).toEqual([
      "Approved in #ai by @carol by reply",
      "Undone in #ai by ben.near in the app",
      "Approved in #ai by amy.near in the app",
    ]);
    expect(within(entries[2]).getByText("“worth it”")).toBeTruthy();
    expect(within(entries[1]).getByText("ben.near").getAttribute("title")).toBe("ben.near");
    expect(entries[1].querySelector("time")?.getAttribute("datetime")).toBe(undo.createdAt);
  });

  it("names an approver from another network by their handle there, with its mark and profile", () => {
    const key = "mastodon:mo@social.example";
    render(
      <ModerationHistory
        history={[
          {
            ...approval,
            moderatorAccountId: key,
            moderatorAccountIdType: "platform_username",
            ...moderatorFields(key, "platform_username"),
            source: "platform_comment",
            note: null,
          },
        ]}
      />,
    );
    const entry = screen.getByTestId("moderation-history-entry");
    expect(entry.querySelector("p")?.textContent?.split(" · ")[0].replace(/\s+/g, " ")).toBe(
      "Approved in #ai by @mo@social.example by reply",
    );
    expect(
      within(entry).getByRole("link", { name: "Mastodon @mo@social.example" }).getAttribute("href"),
    ).toBe("https://social.example/@mo");
  });

  it("says so when no moderator has decided yet", () => {
    render(<ModerationHistory history={[]} />);
    expect(screen.getByText("No moderator has decided on this post yet.")).toBeTruthy();
  });
});
