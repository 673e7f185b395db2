// @vitest-environment jsdom
import type { ApiToken, ApiTokenUse } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiTokensPage } from "./ApiTokensPage";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ACCOUNT = "owner.near";
const SECRET = `curate_pat_${"Q".repeat(43)}`;

const token = (overrides: Partial<ApiToken>): ApiToken => ({
  id: "tok_one",
  name: "Queue dashboard",
  scopes: ["read"],
  hint: "curate_pat_AbCd…",
  status: "active",
  createdAt: "2026-11-01T10:00:00.000Z",
  expiresAt: "2026-12-01T10:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
  ...overrides,
});

const paged = <T,>(items: T[]) => ({
  items,
  pagination: { page: 0, limit: 20, hasNextPage: false, totalCount: items.length },
});

const envelope = (data: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify({ success: true, statusCode: status, timestamp: "", data }), { status }),
  );

/** The page against a fake API holding `tokens` (changed by creations and revocations, as the server would). */
function renderPage(tokens: ApiToken[], uses: ApiTokenUse[] = []) {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? "GET";
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      const path = new URL(url, "http://curate.test").pathname;
      if (path === "/api/users/me/api-tokens/activity") return envelope(paged(uses));
      if (path === "/api/users/me/api-tokens" && method === "GET") return envelope(paged(tokens));
      if (path === "/api/users/me/api-tokens" && method === "POST") {
        const made = token({ id: "tok_new", name: body.name, scopes: body.scopes, expiresAt: null });
        tokens.unshift(made);
        return envelope({ token: made, secret: SECRET }, 201);
      }
      const revoked = /^\/api\/users\/me\/api-tokens\/(.+)$/.exec(path);
      if (revoked && method === "DELETE") {
        const index = tokens.findIndex((t) => t.id === revoked[1]);
        tokens[index] = { ...tokens[index], status: "revoked", revokedAt: "2026-11-20T10:00:00.000Z" };
        return envelope(tokens[index]);
      }
      return Promise.resolve(new Response("{}", { status: 404 }));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ApiTokensPage accountId={ACCOUNT} />
    </QueryClientProvider>,
  );
  return calls;
}

describe("ApiTokensPage", () => {
  it("lists tokens with their status, scopes and hint; only active ones can be revoked", async () => {
    renderPage([
      token({ scopes: ["read", "moderate"] }),
      token({ id: "tok_old", name: "Old bot", status: "revoked", revokedAt: "2026-11-10T10:00:00.000Z" }),
    ]);
    const list = await screen.findByRole("list", { name: "API tokens" });
    const active = within(list).getByRole("listitem", { name: "Queue dashboard" });
    expect(active.textContent).toContain("curate_pat_AbCd…");
    expect(active.textContent).toContain("Read");
    expect(active.textContent).toContain("Moderate");
    expect(active.textContent).toContain("expires Dec 1, 2026");
    expect(active.textContent).toContain("never used");
    within(active).getByRole("button", { name: "Revoke Queue dashboard" });
    const old = within(list).getByRole("listitem", { name: "Old bot" });
    expect(old.textContent).toContain("revoked Nov 10, 2026");
    expect(within(old).queryByRole("button")).toBeNull();
  });

  it("creates a token with the chosen scopes and expiry and shows its secret once", async () => {
    const calls = renderPage([]);
    await screen.findByText("No tokens yet.");
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "  Mod bot " } });
    fireEvent.click(screen.getByRole("checkbox", { name: /^Moderate/ }));
    fireEvent.change(screen.getByLabelText("Expires"), { target: { value: "never" } });
    fireEvent.click(screen.getByRole("button", { name: "Create Token" }));

    const secret = await screen.findByTestId("new-api-token");
    expect(secret.textContent).toBe(SECRET);
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Mod bot",
      scopes: ["read", "moderate"],
      expiresInDays: null,
    });
    await within(await screen.findByRole("list", { name: "API tokens" })).findByRole("listitem", {
      name: "Mod bot",
    });
    expect(screen.getByLabelText("Name")).toHaveProperty("value", "");
    expect(screen.getByRole("checkbox", { name: /^Moderate/ })).toHaveProperty("checked", false);
    expect(screen.getByLabelText("Expires")).toHaveProperty("value", "30");

    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByTestId("new-api-token")).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("says what is missing without asking the server", async () => {
    const calls = renderPage([]);
    await screen.findByText("No tokens yet.");
    fireEvent.click(screen.getByRole("checkbox", { name: /^Read/ }));
    fireEvent.click(screen.getByRole("button", { name: "Create Token" }));
    await screen.findByText("Give the token a name");
    screen.getByText("Choose at least one scope");
    expect(calls.some((call) => call.method === "POST")).toBe(false);
  });

  it("revokes a token after confirming, and shows it revoked", async () => {
    const calls = renderPage([token({})]);
    fireEvent.click(await screen.findByRole("button", { name: "Revoke Queue dashboard" }));
    const dialog = await screen.findByRole("dialog", { name: "Revoke Token" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.find((call) => call.method === "DELETE")?.url).toBe("/api/users/me/api-tokens/tok_one");
    const row = await screen.findByRole("listitem", { name: "Queue dashboard" });
    await within(row).findByText("revoked");
    expect(within(row).queryByRole("button")).toBeNull();
  });

  it("lists what the tokens changed, with the token that did it", async () => {
    renderPage(
      [token({})],
      [
        {
          id: 1,
          tokenId: "tok_one",
          tokenName: "Queue dashboard",
          method: "POST",
          route: "/moderate",
          status: 200,
          at: "2026-11-20T10:00:00.000Z",
        },
      ],
    );
    const table = await screen.findByRole("table", { name: "Token activity" });
    expect(table.textContent).toContain("tok_one");
    expect(table.textContent).toContain("POST /moderate");
    expect(table.textContent).toContain("200");
  });
});
