import { base58Encode } from "@curate/core";
import { AppError } from "../errors.ts";
import { callExternal, ExternalServiceError } from "./http.ts";

const RPC_TIMEOUT_MS = 5000;

/** RPC answers that mean the key is simply not a key of this account. */
const NOT_THIS_ACCOUNTS_KEY = new Set(["UNKNOWN_ACCESS_KEY", "UNKNOWN_ACCOUNT", "INVALID_ACCOUNT"]);

interface RpcAnswer {
  result?: { permission?: unknown };
  error?: { name?: string; cause?: { name?: string } };
}

const unavailable = () =>
  AppError.unavailable("The NEAR network could not be reached to check your key. Please try again shortly.");

/**
 * Asks a NEAR RPC node whether `publicKey` is a full-access key of `accountId` (`query` / `view_access_key`).
 * A missing or function-call-only key is a no; a node that cannot be reached, times out or fails is an
 * outage (503), never a no.
 */
export async function hasFullAccessKey(
  rpcUrl: string,
  accountId: string,
  publicKey: Uint8Array,
): Promise<boolean> {
  let response: Response;
  try {
    response = await callExternal(
      rpcUrl,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
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
      },
      { service: "NEAR RPC", reach: "configured", timeoutMs: RPC_TIMEOUT_MS, retries: 1, maxBackoffMs: 1000 },
    );
  } catch (error) {
    if (error instanceof ExternalServiceError) throw unavailable();
    throw error;
  }
  const body = (await response.json().catch(() => null)) as RpcAnswer | null;
  if (!response.ok || !body) throw unavailable();
  if (body.result) return body.result.permission === "FullAccess";
  const cause = body.error?.cause?.name ?? body.error?.name ?? "";
  if (NOT_THIS_ACCOUNTS_KEY.has(cause)) return false;
  throw unavailable();
}
