import type { LinkedAccount } from "@curate/core";
import { and, eq, notInArray } from "drizzle-orm";
import type { Logger } from "pino";
import { crosspostConnectedAccounts } from "../clients/crosspost.ts";
import type { Database } from "../db/index.ts";
import { linkedAccounts, type User } from "../db/schema.ts";

/** Platforms whose handles the moderator rule knows, by Crosspost's name for them. */
const LINKABLE: Record<string, string> = { twitter: "twitter", x: "twitter" };

export async function listLinkedAccounts(db: Database, user: User): Promise<LinkedAccount[]> {
  return db
    .select({
      platformName: linkedAccounts.platformName,
      platformUserId: linkedAccounts.platformUserId,
      username: linkedAccounts.username,
      profileImage: linkedAccounts.profileImage,
    })
    .from(linkedAccounts)
    .where(eq(linkedAccounts.userId, user.id))
    .orderBy(linkedAccounts.platformName, linkedAccounts.username);
}

/**
 * Makes the user's linked handles what Crosspost says their NEAR account has connected, never what a browser says.
 * A platform account links to one user at a time: the latest proof wins, so a handle connected from another NEAR
 * account moves there. Links Crosspost no longer lists are dropped.
 */
export async function syncLinkedAccounts(
  db: Database,
  crosspostUrl: string,
  user: User,
  logger?: Logger,
): Promise<LinkedAccount[]> {
  const connected = await crosspostConnectedAccounts(crosspostUrl, user.nearAccountId, logger);
  const proven = connected.flatMap((account) => {
    const platformName = LINKABLE[account.platform.toLowerCase()];
    return platformName && account.profile
      ? [
          {
            platformName,
            platformUserId: account.userId,
            username: account.profile.username.replace(/^@/, ""),
            profileImage: account.profile.profileImageUrl ?? null,
          },
        ]
      : [];
  });
  await db.transaction(async (tx) => {
    for (const platformName of new Set(Object.values(LINKABLE))) {
      const keep = proven.filter((p) => p.platformName === platformName).map((p) => p.platformUserId);
      await tx
        .delete(linkedAccounts)
        .where(
          and(
            eq(linkedAccounts.userId, user.id),
            eq(linkedAccounts.platformName, platformName),
            keep.length ? notInArray(linkedAccounts.platformUserId, keep) : undefined,
          ),
        );
    }
    for (const account of proven) {
      await tx
        .insert(linkedAccounts)
        .values({ userId: user.id, ...account })
        .onConflictDoUpdate({
          target: [linkedAccounts.platformName, linkedAccounts.platformUserId],
          set: {
            userId: user.id,
            username: account.username,
            profileImage: account.profileImage,
            updatedAt: new Date(),
          },
        });
    }
  });
  return listLinkedAccounts(db, user);
}
