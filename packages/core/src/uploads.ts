import { z } from "zod";

/** What an upload answers: where the image is shown from, and what its bytes turned out to be. */
export const uploadAnswerSchema = z.object({
  /** A local upload's path under /uploads, or a pinned image's gateway address. */
  url: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
});
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/** An IPFS content id as Pinata answers it: CIDv0 (`Qm…`, base58) or CIDv1 in base32 (`b…`). */
export const ipfsCidSchema = z
  .string()
  .regex(/^(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{50,100})$/, "Not an IPFS content id (CID)");

/**
 * POST /api/upload/pinned: the file the browser pinned on Pinata with a single-use key, which the server reads back
 * and checks by its bytes before the app uses its address.
 */
export const pinnedUploadRequestSchema = z.strictObject({ cid: ipfsCidSchema });
