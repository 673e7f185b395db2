// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { formFromConfig, validateForm } from "#web/features/feed-editor/form-model";
import { FeedConfigForm } from "./FeedConfigForm";

afterEach(cleanup);

describe("FeedConfigForm", () => {
  it("marks an empty search row at its query, in the rule's one wording", () => {
    const form = formFromConfig({
      id: "solar",
      name: "Solar",
      description: "Solar news",
      pollingIntervalMs: 500,
      sources: [{ plugin: "@curate/x-source", search: [{ query: "#solar" }, {}] }],
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FeedConfigForm
          feedId="solar"
          form={form}
          errors={validateForm(form)}
          onChange={() => undefined}
          generation={0}
        />
      </QueryClientProvider>,
    );
    const queries = screen.getAllByLabelText("Query");
    expect(queries.map((input) => input.getAttribute("aria-invalid"))).toEqual([null, "true"]);
    const described = document.getElementById(queries[1].getAttribute("aria-describedby") ?? "");
    expect(described?.textContent).toBe("Enter a query for this search, or remove it");
    expect(screen.getAllByText("Polling interval must be a whole number of at least 1000 ms")).toHaveLength(
      1,
    );
  });
});
