// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Alert } from "./alert";

afterEach(cleanup);

describe("Alert", () => {
  it("announces errors at once and other notes politely", () => {
    render(
      <>
        <Alert title="Error Loading Feed">Not reachable</Alert>
        <Alert variant="info">Saved drafts stay in this tab</Alert>
      </>,
    );
    expect(screen.getByRole("alert").textContent).toBe("Error Loading FeedNot reachable");
    expect(screen.getByRole("status").textContent).toBe("Saved drafts stay in this tab");
  });
});
