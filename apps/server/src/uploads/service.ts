import { createHash, randomUUID } from "node:crypto";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isUploadReference, MAX_UPLOAD_BYTES, type UploadAnswer } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { readPinnedFile, unpinFile } from "../clients/pinata.ts";
import type { Database } from "../db/index.ts";
import { uploads } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";

export { MAX_UPLOAD_BYTES };

const SIGNATURES: Array<{ mime: string; extension: string; matches(bytes: Uint8Array): boolean }> = [
  {
    mime: "image/png",
    extension: "png",
    matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  },
  { mime: "image/jpeg", extension: "jpg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: "image/gif", extension: "gif", matches: (b) => /^GIF8[79]a$/.test(ascii(b, 0, 6)) },
  {
    mime: "image/webp",
    extension: "webp",
    matches: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
  },
];

function ascii(bytes: Uint8Array, start: number, end: number) {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** What the bytes are, whatever the file is called: only raster images are accepted. */
export function sniffImage(bytes: Uint8Array) {
  return SIGNATURES.find((s) => bytes.length >= 12 && s.matches(bytes)) ?? null;
}

const NOT_AN_IMAGE = "Only PNG, JPEG, GIF and WebP images can be uploaded.";
const TOO_LARGE = "The file is too large (at most 5 MB).";

/**
 * Accepts an image the browser pinned on Pinata itself (with a single-use key): its bytes are read back through
 * the gateway and held to the rules of a local upload (a raster image by its bytes, at most 5 MB) before its
 * address is handed out. A file that fails them is unpinned from the operator's account and refused.
 */
export async function acceptPinnedUpload(
  pinata: { apiUrl: string; gatewayUrl: string; jwt: string },
  cid: string,
  logger?: Logger,
): Promise<UploadAnswer> {
  const bytes = await readPinnedFile(pinata.gatewayUrl, cid, MAX_UPLOAD_BYTES);
  const kind = bytes ? sniffImage(bytes) : null;
  if (!bytes || !kind) {
    if (!(await unpinFile(pinata.apiUrl, pinata.jwt, cid))) {
      logger?.warn({ cid }, "a refused upload could not be unpinned from Pinata");
    }
    throw AppError.validation(bytes ? NOT_AN_IMAGE : TOO_LARGE);
  }
  return { url: `${pinata.gatewayUrl.replace(/\/+$/, "")}/${cid}`, mimeType: kind.mime, size: bytes.length };
}

/**
 * Where an image is for a reader outside the page (a feed file, a link preview, a channel): an uploaded image's
 * path resolved against PUBLIC_URL as it is now, anything else as stored.
 */
export function absoluteImageUrl(image: string | null, publicUrl: string): string | null {
  if (!image) return null;
  return isUploadReference(image) ? new URL(image, publicUrl).href : image;
}

/**
 * Stores an image under the sha256 of its bytes (so the same image is stored once and its path never changes
 * meaning) and answers its path under /uploads (what feeds store: pages resolve it against their own address).
 */
export async function storeUpload(
  db: Database,
  options: { uploadsDir: string; bytesPerDay: number },
  bytes: Uint8Array,
  createdBy: string,
) {
  if (bytes.length === 0) throw AppError.validation("The file is empty.");
  if (bytes.length > MAX_UPLOAD_BYTES) throw AppError.validation(TOO_LARGE);
  const kind = sniffImage(bytes);
  if (!kind) throw AppError.validation(NOT_AN_IMAGE);
  const hash = createHash("sha256").update(bytes).digest("hex");
  const [used] = await queryRows<{ bytes: number; known: boolean }>(
    db,
    sql`select coalesce(sum(size), 0)::bigint as bytes,
        exists (select 1 from uploads where hash = ${hash}) as known
      from uploads where created_by = ${createdBy} and created_at > now() - interval '1 day'`,
  );
  // An image already stored costs no disk; anything new counts against the account's daily allowance.
  if (!used.known && Number(used.bytes) + bytes.length > options.bytesPerDay) {
    throw new AppError(
      "RATE_LIMITED",
      `This account has uploaded ${Math.round(Number(used.bytes) / 1024 / 1024)} MB in the last day, the most allowed; try again tomorrow.`,
    );
  }
  const name = `${hash}.${kind.extension}`;
  const path = join(options.uploadsDir, name);
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(options.uploadsDir, { recursive: true });
    // A name of its own per write: two uploads of the same new image at once must not share a temporary file.
    const partial = `${path}.${process.pid}.${randomUUID()}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, path);
  }
  await db
    .insert(uploads)
    .values({ hash, mimeType: kind.mime, size: bytes.length, extension: kind.extension, createdBy })
    .onConflictDoNothing();
  return { url: `/uploads/${name}`, mimeType: kind.mime, size: bytes.length };
}
