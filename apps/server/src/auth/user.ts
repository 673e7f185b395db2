import type { CurrentUser } from "@curate/core";
import type { AppEnv } from "../config/env.ts";
import { isSuperAdmin } from "../feeds/permissions.ts";
import type { User } from "./sessions.ts";

export function publicUser(user: User, env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">): CurrentUser {
  return {
    id: user.id,
    nearAccountId: user.nearAccountId,
    username: user.username,
    profileImage: user.profileImage,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    superAdmin: isSuperAdmin(env, user),
  };
}
