import { base58Encode } from "@curate/core";

const RPC_TIMEOUT_MS = 5000;

/**
 * Asks a NEAR RPC node whether `publicKey` is a full-access key of `accountId`
 * (`query` / `view_access_key`). Any error, missing key or function-call-only key means no.
 */
export async function hasFullAccessKey(
  rpcUrl: string,
  accountId: string,
  publicKey: Uint8Array,
): Promise<boolean> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "curate",
      method: "query",
      params: {
        request_type: "view_access_key",
        finality: "final",
        account_id: accountId,
        public_key: `ed25519:${base58Encode(publicKey)}`,
      },
    }),
  });
  if (!response.ok) return false;
  const body = (await response.json()) as { result?: { permission?: unknown }; error?: unknown };
  return body.result?.permission === "FullAccess";
}
