import { z } from "zod";
import { isUploadReference } from "./feed-rules.ts";

/** NEAR account ids: 2–64 characters of lower-case letters, digits and - _ . separators. */
export const accountIdSchema = z
  .string()
  .min(2, "NEAR account ID is required")
  .max(64)
  .regex(/^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/, "Invalid NEAR account ID");

/** The signed-in user as GET /api/users/me and POST /api/auth/verify-login answer it. */
export const currentUserSchema = z.object({
  id: z.number().int().positive(),
  nearAccountId: z.string().min(1, "NEAR account ID is required"),
  username: z.string().min(1).max(100).nullable(),
  /** An image uploaded to this server, as its path under /uploads (see `profileImageSchema`). */
  profileImage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether this server names the user a super admin (SUPER_ADMIN_ACCOUNTS): the web app shows Operations then. */
  superAdmin: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const PROFILE_IMAGE_MESSAGE = "Invalid URL format for profile image";

/**
 * A profile image is one of this server's uploads (sniffed, at most 5 MB, a raster image), named by its path: a
 * third-party address would tell its host the address of everyone who sees the picture.
 */
export const profileImageSchema = z
  .string()
  .max(100, PROFILE_IMAGE_MESSAGE)
  .refine((value) => isUploadReference(value) && !value.endsWith(".svg"), PROFILE_IMAGE_MESSAGE);

/** PATCH /api/users/me: what the signed-in user may change about themselves (null removes the image). */
export const updateProfileRequestSchema = z.strictObject({
  profileImage: profileImageSchema.nullable(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

export const initiateLoginRequestSchema = z.object({ accountId: accountIdSchema });

/** What the wallet signs (NEP-413): the server's single-use nonce (base64 of 32 bytes) and recipient. */
export const loginChallengeSchema = z.object({
  nonce: z.string(),
  recipient: z.string(),
  message: z.string(),
});
export type LoginChallenge = z.infer<typeof loginChallengeSchema>;

export const verifyLoginRequestSchema = z.object({
  token: z.string().min(1).max(4096),
  accountId: accountIdSchema,
});

/** A social account linked to a user on a service's proof (Crosspost's list of the NEAR account's connections). */
export const linkedAccountSchema = z.object({
  platformName: z.string(),
  platformUserId: z.string(),
  username: z.string(),
  profileImage: z.string().nullable(),
});
export type LinkedAccount = z.infer<typeof linkedAccountSchema>;

/** How long a one-time linking code stays good. */
export const LINK_CODE_MINUTES = 15;

/** A one-time code that links the handle which posts or sends `!link <code>` to the bot to the signed-in account. */
export const linkCodeSchema = z.object({
  code: z.string(),
  expiresAt: z.string(),
  /** What to post, as the user should type it. */
  command: z.string(),
});
export type LinkCode = z.infer<typeof linkCodeSchema>;
