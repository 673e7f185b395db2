import { AppError } from "../errors.ts";
import { readBodyUpTo } from "../http/bounded-body.ts";
import { callExternal, ExternalServiceError } from "./http.ts";

/** A single-use Pinata key for one browser upload, so the server's own JWT never leaves it. */
export async function createPinataUploadKey(apiUrl: string, jwt: string) {
  let response: Response;
  try {
    response = await callExternal(
      `${apiUrl.replace(/\/+$/, "")}/users/generateApiKey`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${jwt}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          keyName: `curate-upload-${Date.now()}`,
          maxUses: 1,
          permissions: { endpoints: { pinning: { pinFileToIPFS: true } } },
        }),
      },
      { service: "Pinata", reach: "configured", timeoutMs: 10_000 },
    );
  } catch (error) {
    if (error instanceof ExternalServiceError) throw AppError.unavailable("Pinata could not be reached.");
    throw error;
  }
  if (!response.ok) {
    throw AppError.unavailable(`Pinata refused to create an upload key (${response.status}).`);
  }
  const body = (await response.json().catch(() => ({}))) as { JWT?: unknown };
  if (typeof body.JWT !== "string" || !body.JWT) throw AppError.unavailable("Pinata returned no upload key.");
  return { JWT: body.JWT };
}

/**
 * The bytes of a pinned file, read back through the operator's gateway, or null when it is larger than `max`: what
 * was pinned, whatever the browser said it was.
 */
export async function readPinnedFile(
  gatewayUrl: string,
  cid: string,
  max: number,
): Promise<Uint8Array | null> {
  let response: Response;
  try {
    response = await callExternal(
      `${gatewayUrl.replace(/\/+$/, "")}/${cid}`,
      { method: "GET" },
      { service: "Pinata gateway", reach: "configured", retries: 2, timeoutMs: 20_000 },
    );
  } catch (error) {
    if (error instanceof ExternalServiceError) {
      throw AppError.unavailable("The Pinata gateway could not be reached to check the image; try again.");
    }
    throw error;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw AppError.unavailable(
      `The Pinata gateway answered ${response.status} for the pinned image; try again in a moment.`,
    );
  }
  return readBodyUpTo(response, max);
}

/** Takes a pinned file off the operator's Pinata account (a refused upload must not stay hosted there). */
export async function unpinFile(apiUrl: string, jwt: string, cid: string): Promise<boolean> {
  try {
    const response = await callExternal(
      `${apiUrl.replace(/\/+$/, "")}/pinning/unpin/${cid}`,
      { method: "DELETE", headers: { Authorization: `Bearer ${jwt}` } },
      { service: "Pinata", reach: "configured", retries: 1, timeoutMs: 10_000 },
    );
    await response.body?.cancel();
    return response.ok;
  } catch (error) {
    if (error instanceof ExternalServiceError) return false;
    throw error;
  }
}
