/**
 * The networks Curate reads posts from. A submission's identity is (platform, post id): `submissionKey` folds the
 * two into the one key the API has always called `tweetId` (decision 0019). X keeps its bare numeric ids, so
 * every key stored before other networks existed still names the same post.
 */
export const PLATFORMS = ["twitter", "bluesky", "mastodon", "telegram", "rss"] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_LABELS: Record<Platform, string> = {
  twitter: "X",
  bluesky: "Bluesky",
  mastodon: "Mastodon",
  telegram: "Telegram",
  rss: "RSS",
};

export function isPlatform(value: unknown): value is Platform {
  return typeof value === "string" && (PLATFORMS as readonly string[]).includes(value);
}

/** The networks people moderate from: `moderation.approvers` and `blacklist` list handles under these keys. */
export const MODERATED_PLATFORMS = ["twitter", "bluesky", "mastodon", "telegram"] as const;
export type ModeratedPlatform = (typeof MODERATED_PLATFORMS)[number];

/** The key of a post: X's bare id, or `<platform>:<id on that network>` (an AT-URI, a status URI, `chat:message`). */
export function submissionKey(platform: Platform, postId: string): string {
  return platform === "twitter" ? postId : `${platform}:${postId}`;
}

/** The platform a submission key names (a bare key is X's). */
export function platformOfKey(key: string): Platform {
  const prefix = key.slice(0, key.indexOf(":"));
  return prefix && prefix !== "twitter" && isPlatform(prefix) ? prefix : "twitter";
}

/**
 * A curator's or approver's key in stored rows and statistics: X's bare handle, or `<platform>:<handle>` — so two
 * people with the same name on two networks never merge (decision 0019).
 */
export function handleOnPlatform(platform: Platform, handle: string): string {
  const bare = handle.trim().replace(/^@+/, "");
  return platform === "twitter" ? bare : `${platform}:${bare}`;
}

/** The network and the handle as people write it, from a stored curator key. */
export function splitHandleKey(key: string): { platform: Platform; handle: string } {
  const platform = platformOfKey(key);
  return { platform, handle: platform === "twitter" ? key : key.slice(platform.length + 1) };
}
