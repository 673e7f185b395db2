import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchSocialProfile, NEAR_RPC_URL } from "./api";

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
});
