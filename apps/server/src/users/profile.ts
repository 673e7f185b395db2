import { type CurrentUser, type UpdateProfileRequest, uploadHashOf } from "@curate/core";
import { eq, sql } from "drizzle-orm";
import { publicUser } from "../auth/user.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { type User, uploads, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";

/**
 * Sets (or removes, with null) the signed-in user's profile image. It must be an image this server stored from an
 * upload (POST /api/upload checked its bytes and size): a path naming no upload here is refused.
 */
export async function updateProfile(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  change: UpdateProfileRequest,
): Promise<CurrentUser> {
  const hash = change.profileImage === null ? null : uploadHashOf(change.profileImage);
  if (hash) {
    const [upload] = await db.select({ hash: uploads.hash }).from(uploads).where(eq(uploads.hash, hash));
    if (!upload) {
      throw AppError.validation("Upload the image first: this server holds no such image.", [
        { path: "profileImage", message: "Upload the image first: this server holds no such image." },
      ]);
    }
  }
  const [updated] = await db
    .update(users)
    .set({ profileImage: change.profileImage, updatedAt: sql`now()` })
    .where(eq(users.id, user.id))
    .returning();
  return publicUser(updated, env);
}
