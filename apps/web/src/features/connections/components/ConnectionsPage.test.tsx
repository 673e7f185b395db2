// @vitest-environment jsdom
import type { AppConfig } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appConfigQueryOptions } from "#web/features/config/api";
import { linkedHandlesQueryOptions } from "../api";
import { ConnectionsPage } from "./ConnectionsPage";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ACCOUNT = "reader.near";
const CROSSPOST = "https://crosspost.example.org";

/** The page with the deployment's settings and no linked handles; Crosspost answers with `answer`. */
function renderPage(answer: () => Promise<Response>) {
  const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
  client.setQueryData(appConfigQueryOptions().queryKey, {
    crosspostUrl: CROSSPOST,
    networks: [],
  } as unknown as AppConfig);
  client.setQueryData(linkedHandlesQueryOptions(ACCOUNT).queryKey, []);
  const crosspost = vi.fn(answer);
  vi.stubGlobal(
    "fetch",
    vi.fn((url: URL | string) =>
      String(url).startsWith(CROSSPOST) ? crosspost() : Promise.resolve(new Response("{}", { status: 404 })),
    ),
  );
  render(
    <QueryClientProvider client={client}>
      <ConnectionsPage accountId={ACCOUNT} />
    </QueryClientProvider>,
  );
  return crosspost;
}

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

describe("ConnectionsPage", () => {
  it("says nothing is connected yet to an account Crosspost does not know, without an error", async () => {
    renderPage(() =>
      json(401, {
        success: false,
        errors: [{ message: "NEAR account is not authorized", code: "UNAUTHORIZED" }],
      }),
    );
    // While Crosspost answers, the same box as the empty list holds the place, so the linked handles below stay put.
    const loading = screen.getByText("Loading connected accounts...");
    const empty = await screen.findByText("No accounts connected yet.");
    expect(empty.tagName).toBe(loading.tagName);
    expect(empty.className).toBe(loading.className);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByText(/Authentication with Crosspost failed/)).toBeNull();
  });

  it("says Crosspost is down when it cannot be reached, and lists the accounts after Retry", async () => {
    let down = true;
    const crosspost = renderPage(() =>
      down
        ? Promise.reject(new TypeError("Failed to fetch"))
        : json(200, {
            success: true,
            data: { accounts: [{ platform: "x", userId: "42", profile: { username: "SolarAlice" } }] },
          }),
    );
    const alert = await screen.findByTestId("crosspost-unavailable");
    expect(alert.textContent).toContain("Crosspost cannot be reached");
    expect(alert.textContent).toContain(
      "Crosspost (crosspost.example.org), which is not answering right now",
    );
    expect(alert.textContent).not.toContain("Failed to fetch");
    // Two retries on their own, then it waits for the person.
    expect(crosspost).toHaveBeenCalledTimes(3);
    down = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    const list = await screen.findByRole("list", { name: "Connected accounts" });
    expect(list.textContent).toContain("@SolarAlice");
    expect(screen.queryByTestId("crosspost-unavailable")).toBeNull();
  });

  it("says the same of a failing service, and keeps the spec's words for a refused account", async () => {
    renderPage(() => json(502, { success: false }));
    expect((await screen.findByTestId("crosspost-unavailable")).textContent).toContain(
      "not answering right now",
    );
    cleanup();
    renderPage(() => json(403, { success: false }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Authentication with Crosspost failed. Please try reconnecting.",
    );
  });
});
