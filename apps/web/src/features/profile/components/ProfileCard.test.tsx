// @vitest-environment jsdom
import type { CurrentUser } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { socialProfileQueryOptions } from "#web/features/social-profile/api";
import { ProfileCard } from "./ProfileCard";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ACCOUNT = "reader.near";
const UPLOADED = `/uploads/${"e".repeat(64)}.png`;
const user: CurrentUser = {
  id: 1,
  nearAccountId: ACCOUNT,
  username: null,
  profileImage: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  superAdmin: false,
};

describe("ProfileCard", () => {
  it("uploads a chosen image to this server and makes it the profile image", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
    client.setQueryData(currentUserQueryOptions().queryKey, user);
    client.setQueryData(socialProfileQueryOptions(ACCOUNT).queryKey, {
      name: "Reader",
      imageUrl: "https://ipfs.near.social/ipfs/bafy",
    });
    const requests: Array<{ url: string; method: string; body: unknown }> = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit = {}) => {
        requests.push({ url, method: init.method ?? "GET", body: init.body });
        const data = url === "/api/upload" ? { url: UPLOADED } : { ...user, profileImage: UPLOADED };
        return new Response(JSON.stringify({ success: true, data }), { status: 200 });
      }),
    );
    const { container } = render(
      <QueryClientProvider client={client}>
        <ProfileCard accountId={ACCOUNT} />
      </QueryClientProvider>,
    );
    expect(container.querySelector("img")?.getAttribute("src")).toBe("https://ipfs.near.social/ipfs/bafy");
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "me.png", { type: "image/png" });
    fireEvent.change(screen.getByTestId("profile-image-file"), { target: { files: [file] } });
    await waitFor(() => expect(container.querySelector("img")?.getAttribute("src")).toBe(UPLOADED));
    expect(requests.map(({ url, method }) => `${method} ${url}`)).toEqual([
      "POST /api/upload",
      "PATCH /api/users/me",
    ]);
    expect(JSON.parse(String(requests[1].body))).toEqual({ profileImage: UPLOADED });
    expect(screen.getByRole("button", { name: "Remove image" })).toBeTruthy();
  });
});
