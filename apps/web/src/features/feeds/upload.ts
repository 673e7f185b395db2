import type { AppConfig } from "@curate/core";
import { ApiError, apiUrl } from "#web/lib/api";

export const DEFAULT_PINATA_UPLOAD_URL = "https://uploads.pinata.cloud/v3/files";
export const DEFAULT_PINATA_GATEWAY_URL = "https://gateway.pinata.cloud/ipfs";

/** Embedded default: the server stores the image and answers where it is served. */
async function uploadToServer(file: File): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  const response = await fetch(apiUrl("/upload"), { method: "POST", body: form, credentials: "same-origin" });
  const payload = (await response.json().catch(() => null)) as {
    success?: boolean;
    data?: { url?: string };
    error?: { message?: string };
  } | null;
  if (!response.ok || !payload?.success || !payload.data?.url) {
    throw new ApiError(response.status, payload?.error?.message || response.statusText, payload);
  }
  return payload.data.url;
}

async function pinataKey(): Promise<string> {
  const response = await fetch(apiUrl("/upload/get-auth-key"), { credentials: "same-origin" });
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    throw new Error(
      `Failed to retrieve Pinata auth key: ${response.status} ${response.statusText} - ${body}`,
    );
  }
  const payload = (await response.json().catch(() => null)) as { data?: { JWT?: string } } | null;
  const jwt = payload?.data?.JWT;
  if (!jwt) throw new Error("No JWT returned from Pinata auth key service");
  return jwt;
}

/** With PINATA_JWT on the server, the browser sends the file straight to Pinata with a short-lived key. */
async function uploadToPinata(file: File, pinata: AppConfig["pinata"]): Promise<string> {
  const jwt = await pinataKey();
  try {
    const form = new FormData();
    form.append("file", file);
    const response = await fetch(pinata?.uploadUrl ?? DEFAULT_PINATA_UPLOAD_URL, {
      method: "POST",
      headers: { Authorization: `Bearer ${jwt}` },
      body: form,
    });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    // The v3 files API answers data.cid; the older pinning API answers IpfsHash.
    const payload = (await response.json()) as { data?: { cid?: string }; IpfsHash?: string };
    const cid = payload.data?.cid ?? payload.IpfsHash;
    if (!cid) throw new Error("the answer holds no content hash");
    const gateway = (pinata?.gatewayUrl ?? DEFAULT_PINATA_GATEWAY_URL).replace(/\/+$/, "");
    return `${gateway}/${cid}`;
  } catch (error) {
    throw new Error(`Pinata upload process failed: ${(error as Error).message}`);
  }
}

/** Uploads an image the way this deployment is set up to, and returns the URL it is shown from. */
export function uploadImage(file: File, config: Pick<AppConfig, "imageUpload" | "pinata">): Promise<string> {
  return config.imageUpload === "pinata" ? uploadToPinata(file, config.pinata) : uploadToServer(file);
}
