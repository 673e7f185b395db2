import { z } from "zod";
import type { User } from "./sessions.ts";

export const userSchema = z.object({
  id: z.number().int().positive(),
  nearAccountId: z.string().min(1, "NEAR account ID is required"),
  username: z.string().min(1).max(100).nullable(),
  profileImage: z.url("Invalid URL format for profile image").nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicUser = z.infer<typeof userSchema>;

export function publicUser(user: User): PublicUser {
  return {
    id: user.id,
    nearAccountId: user.nearAccountId,
    username: user.username,
    profileImage: user.profileImage,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
