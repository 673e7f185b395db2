// @vitest-environment jsdom
import type { Submission, SubmissionFeed } from "@curate/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { VoteTallies } from "./VoteTallies";

afterEach(cleanup);

const link = (feedId: string, extra: Partial<SubmissionFeed>): SubmissionFeed => ({
  submissionId: "1",
  feedId,
  feedName: null,
  status: "pending",
  curatorId: null,
  curatorUsername: "bob",
  curatorNetwork: "twitter",
  curatorHandle: "bob",
  curatorProfileUrl: "https://x.com/bob",
  curatorNotes: null,
  submittedAt: "2026-11-20T11:00:00.000Z",
  createdAt: "2026-11-20T11:00:00.000Z",
  updatedAt: "2026-11-20T11:00:00.000Z",
  ...extra,
});

const submission = (feeds: SubmissionFeed[]) => ({ feeds }) as unknown as Submission;
const implicit = "62a611b472d89b0e5fc93c069b9f700b4c552d55bc0e87b56008ef17b6b2bebe";

describe("VoteTallies", () => {
  it("shows each quorum feed's tally, accounts shortened, and nothing for feeds without a quorum", () => {
    render(
      <VoteTallies
        submission={submission([
          link("council", {
            tally: {
              required: 3,
              votes: [
                { voter: "@carol.bsky.social", action: "approve" },
                { voter: implicit, action: "approve" },
              ],
            },
          }),
          link("plain", { tally: null }),
        ])}
      />,
    );
    const tallies = screen.getAllByTestId("vote-tally");
    expect(tallies).toHaveLength(1);
    expect(tallies[0].textContent).toContain("#council");
    expect(tallies[0].textContent).toContain("2 of 3 approvals: @carol.bsky.social, 62a611b4…b2bebe");
  });

  it("shows nothing on a post no quorum feed has", () => {
    const { container } = render(<VoteTallies submission={submission([link("plain", {})])} />);
    expect(container.innerHTML).toBe("");
  });
});
