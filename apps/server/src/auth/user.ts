import type { CurrentUser } from "@curate/core";
import type { User } from "./sessions.ts";

export function publicUser(user: User): CurrentUser {
  return {
    id: user.id,
    nearAccountId: user.nearAccountId,
    username: user.username,
    profileImage: user.profileImage,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
