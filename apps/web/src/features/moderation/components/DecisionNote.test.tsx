// @vitest-environment jsdom
import { type ModerationRecord, moderatorFields } from "@curate/core";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DecisionNote } from "./DecisionNote";

afterEach(cleanup);

const record = (accountId: string, idType: ModerationRecord["moderatorAccountIdType"]): ModerationRecord => ({
  id: 3,
  submissionId: "1890000000000000001",
  feedId: "ai",
  moderatorAccountId: accountId,
  moderatorAccountIdType: idType,
  ...moderatorFields(accountId, idType),
  source: idType === "near" ? "ui" : "platform_comment",
  action: "approve",
  note: null,
  createdAt: "2026-11-20T12:00:00.000Z",
  updatedAt: "2026-11-20T12:00:00.000Z",
});

/** The line as read, spaces collapsed; a network's mark is an image named by the network, so not in the text. */
const line = () =>
  screen
    .getByTestId("decision-note")
    .querySelector("p")
    ?.textContent?.split("·")[0]
    .replace(/\s+/g, " ")
    .trim();

describe("DecisionNote", () => {
  it("says who approved by reply on Mastodon as their handle there, linked to their profile", () => {
    render(<DecisionNote record={record("mastodon:mo@social.example", "platform_username")} />);
    expect(line()).toBe("Approved by @mo@social.example by reply");
    const who = within(screen.getByTestId("decision-note")).getByRole("link", {
      name: "Mastodon @mo@social.example",
    });
    expect(who.getAttribute("href")).toBe("https://social.example/@mo");
  });

  it("shows an X approver as @handle and a Curate account by its NEAR name, unlinked", () => {
    render(<DecisionNote record={record("carol", "platform_username")} />);
    expect(line()).toBe("Approved by @carol by reply");
    cleanup();
    render(<DecisionNote record={record("amy.near", "near")} />);
    expect(line()).toBe("Approved by amy.near in the app");
    expect(within(screen.getByTestId("decision-note")).queryByRole("link")).toBeNull();
  });
});
