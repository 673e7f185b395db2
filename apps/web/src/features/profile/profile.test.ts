import type { Feed } from "@curate/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { curatorCount, filterMyFeeds } from "./my-feeds";
import { fetchSocialProfile, NEAR_RPC_URL, shortAccountId } from "./social";

function feed(id: string, overrides: Partial<Feed["config"]> = {}): Feed {
  return {
    id,
    name: `${id} feed`,
    description: `About ${id}`,
    image: null,
    createdBy: "alice.near",
    admins: [],
    config: {
      id,
      name: `${id} feed`,
      description: `About ${id}`,
      sources: [{ plugin: "@curate/x" }],
      ...overrides,
    },
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

describe("my feeds", () => {
  const feeds = [feed("climate"), feed("gaming", { sources: [] }), feed("desci")];

  it("filters on setup completeness and searches name, id and description", () => {
    expect(filterMyFeeds(feeds, "", "incomplete").map((f) => f.id)).toEqual(["gaming"]);
    expect(filterMyFeeds(feeds, "", "completed").map((f) => f.id)).toEqual(["climate", "desci"]);
    expect(filterMyFeeds(feeds, "  ABOUT DESCI ", "all").map((f) => f.id)).toEqual(["desci"]);
    expect(filterMyFeeds(feeds, "climate", "incomplete")).toEqual([]);
  });

  it("counts every approver handle over all platforms as a curator", () => {
    expect(
      curatorCount(feed("a", { moderation: { approvers: { twitter: ["x", "y"], near: ["z.near"] } } })),
    ).toBe(3);
    expect(curatorCount(feed("b"))).toBe(0);
  });
});

describe("NEAR Social profile", () => {
  afterEach(() => vi.unstubAllGlobals());

  function answer(result: unknown) {
    const bytes = [...new TextEncoder().encode(JSON.stringify(result))];
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: "curate", result: { result: bytes } }));
  }

  it("reads name and IPFS image with a social.near get call", async () => {
    const fetchMock = vi.fn(async () =>
      answer({ "alice.near": { profile: { name: "Alice", image: { ipfs_cid: "bafy123" } } } }),
    );
    vi.stubGlobal("fetch", fetchMock);
    expect(await fetchSocialProfile("alice.near")).toEqual({
      name: "Alice",
      imageUrl: "https://ipfs.near.social/ipfs/bafy123",
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(NEAR_RPC_URL);
    const body = JSON.parse(String(init.body));
    expect(body.params).toMatchObject({
      request_type: "call_function",
      account_id: "social.near",
      method_name: "get",
    });
    expect(JSON.parse(atob(body.params.args_base64))).toEqual({ keys: ["alice.near/profile/**"] });
  });

  it("uses an NFT's media and falls back to nothing for a profile without one", async () => {
    vi.stubGlobal(
      "fetch",
      vi
        .fn()
        .mockResolvedValueOnce(
          answer({ "bob.near": { profile: { image: { nft: { contractId: "nft.near", tokenId: "7" } } } } }),
        )
        .mockResolvedValueOnce(answer({ metadata: { media: "https://img.example/7.png" } }))
        .mockResolvedValueOnce(answer({})),
    );
    expect(await fetchSocialProfile("bob.near")).toEqual({
      name: null,
      imageUrl: "https://img.example/7.png",
    });
    expect(await fetchSocialProfile("carol.near")).toEqual({ name: null, imageUrl: null });
  });

  it("shortens implicit accounts for display only", () => {
    expect(shortAccountId("a".repeat(64))).toBe(`${"a".repeat(8)}…${"a".repeat(6)}`);
    expect(shortAccountId("alice.near")).toBe("alice.near");
  });
});
