// The NEAR Social profile (name and avatar) of an account, read straight from the social.near contract. Its own
// feature because both the header's account menu (auth) and the profile page show it.
import { base64Encode } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";

/** NEAR mainnet RPC; NEAR Social profiles live in the social.near contract. One constant so tests can stub it. */
export const NEAR_RPC_URL = "https://rpc.mainnet.near.org";
const SOCIAL_CONTRACT = "social.near";
const IPFS_GATEWAY = "https://ipfs.near.social/ipfs/";
const PROFILE_STALE_MS = 5 * 60_000;
const RPC_TIMEOUT_MS = 8000;

export interface SocialProfile {
  name: string | null;
  imageUrl: string | null;
}

interface SocialImage {
  url?: unknown;
  ipfs_cid?: unknown;
  nft?: { contractId?: unknown; tokenId?: unknown };
}

/** A read-only contract call over JSON-RPC; the answer is the method's JSON result. */
async function viewCall(contract: string, method: string, args: unknown, signal?: AbortSignal) {
  const timeout = AbortSignal.timeout(RPC_TIMEOUT_MS);
  const response = await fetch(NEAR_RPC_URL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "curate",
      method: "query",
      params: {
        request_type: "call_function",
        finality: "optimistic",
        account_id: contract,
        method_name: method,
        args_base64: base64Encode(new TextEncoder().encode(JSON.stringify(args))),
      },
    }),
  });
  if (!response.ok) throw new Error(`NEAR RPC answered ${response.status}`);
  const payload = (await response.json()) as { result?: { result?: number[] }; error?: unknown };
  if (!payload.result?.result) throw new Error("NEAR RPC returned no result");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(payload.result.result))) as unknown;
}

function ipfsUrl(cid: string) {
  return `${IPFS_GATEWAY}${cid}`;
}

/** An NFT avatar: the token's media, which is either a full URL or an IPFS content id. */
async function nftImageUrl(contractId: string, tokenId: string, signal?: AbortSignal) {
  const token = (await viewCall(contractId, "nft_token", { token_id: tokenId }, signal)) as {
    metadata?: { media?: unknown };
  } | null;
  const media = token?.metadata?.media;
  if (typeof media !== "string" || !media) return null;
  return /^https?:\/\//.test(media) ? media : ipfsUrl(media);
}

async function imageUrlOf(image: SocialImage | undefined, signal?: AbortSignal): Promise<string | null> {
  if (!image) return null;
  if (typeof image.url === "string" && /^https?:\/\//.test(image.url)) return image.url;
  if (typeof image.ipfs_cid === "string" && image.ipfs_cid) return ipfsUrl(image.ipfs_cid);
  const { contractId, tokenId } = image.nft ?? {};
  if (typeof contractId === "string" && typeof tokenId === "string") {
    // A missing or odd NFT falls back to the generated avatar rather than failing the whole profile.
    return nftImageUrl(contractId, tokenId, signal).catch(() => null);
  }
  return null;
}

export async function fetchSocialProfile(accountId: string, signal?: AbortSignal): Promise<SocialProfile> {
  const data = (await viewCall(
    SOCIAL_CONTRACT,
    "get",
    { keys: [`${accountId}/profile/**`] },
    signal,
  )) as Record<string, { profile?: { name?: unknown; image?: SocialImage } } | undefined> | null;
  const profile = data?.[accountId]?.profile;
  const name = typeof profile?.name === "string" && profile.name.trim() ? profile.name.trim() : null;
  return { name, imageUrl: await imageUrlOf(profile?.image, signal) };
}

export const socialProfileKeys = {
  all: ["social-profile"] as const,
  account: (accountId: string) => [...socialProfileKeys.all, accountId] as const,
};

export const socialProfileQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: socialProfileKeys.account(accountId),
    queryFn: ({ signal }) => fetchSocialProfile(accountId, signal),
    staleTime: PROFILE_STALE_MS,
    gcTime: PROFILE_STALE_MS,
    // Offline or missing profiles fall back to the account id at once; asking again would only delay that.
    retry: false,
    refetchOnWindowFocus: false,
  });
