import { AppError } from "../errors.ts";
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
