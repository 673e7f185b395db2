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

/** How a handle reads on screen: `@name` everywhere but RSS, whose "handle" is an author's or a blog's name. */
export function displayHandle(platform: Platform, handle: string): string {
  return platform === "rss" ? handle : `@${handle}`;
}

// Telegram's rule for public usernames: 5–32 of a–z, 0–9 and _, starting with a letter. Intake falls back to a
// first name or a chat title when there is none, and those must not become t.me links to someone else.
const TELEGRAM_USERNAME = /^[a-z][a-z0-9_]{3,30}[a-z0-9]$/i;
const MASTODON_ACCT = /^([^@\s/?#]+)@([a-z0-9.-]+\.[a-z]{2,})$/i;

/**
 * The handle's profile on its network, or null where there is none to link to: RSS authors, Telegram names that
 * are not public usernames, Mastodon handles without their instance.
 */
export function profileUrl(platform: Platform, handle: string): string | null {
  const bare = handle.trim().replace(/^@+/, "");
  if (!bare) return null;
  switch (platform) {
    case "twitter":
      return `https://x.com/${encodeURIComponent(bare)}`;
    case "bluesky":
      return `https://bsky.app/profile/${encodeURIComponent(bare)}`;
    case "mastodon": {
      const acct = MASTODON_ACCT.exec(bare);
      return acct ? `https://${acct[2].toLowerCase()}/@${encodeURIComponent(acct[1])}` : null;
    }
    case "telegram":
      return TELEGRAM_USERNAME.test(bare) ? `https://t.me/${bare}` : null;
    case "rss":
      return null;
  }
}

/** A person as the app shows them: their network, their handle there (no prefix, no "@") and their profile. */
export interface PersonOnNetwork {
  network: Platform;
  handle: string;
  profileUrl: string | null;
}

/** Who a stored curator or approver key (`name` on X, `<platform>:<name>` elsewhere) names, on their network. */
export function personOfKey(key: string): PersonOnNetwork {
  const { platform, handle } = splitHandleKey(key);
  return { network: platform, handle, profileUrl: profileUrl(platform, handle) };
}

/** A site's name as its address shows it: the host without a leading "www.", or null for no web address. */
export function siteName(url: string | null | undefined): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).hostname.replace(/^www\./i, "") || null;
  } catch {
    return null;
  }
}

/**
 * Where a post lives, by name: its network ("Mastodon"), or for a blog post (RSS) the site it was read from, since
 * "RSS" names a file format, not a place anyone visits.
 */
export function networkName(platform: Platform, url: string | null | undefined): string {
  return (platform === "rss" ? siteName(url) : null) ?? PLATFORM_LABELS[platform];
}

/**
 * The address of a post's author: their profile on their network, or for a blog post the site it came from. Null
 * where there is none (a Telegram name that is not a public username).
 */
export function authorUrl(
  platform: Platform,
  handle: string,
  postUrl: string | null | undefined,
): string | null {
  if (platform !== "rss") return profileUrl(platform, handle);
  return postUrl && siteName(postUrl) ? new URL(postUrl).origin : null;
}

/** The curator fields the API answers beside a stored curator key (all null without a curator). */
export function curatorFields(key: string | null): {
  curatorNetwork: Platform | null;
  curatorHandle: string | null;
  curatorProfileUrl: string | null;
} {
  if (!key) return { curatorNetwork: null, curatorHandle: null, curatorProfileUrl: null };
  const person = personOfKey(key);
  return {
    curatorNetwork: person.network,
    curatorHandle: person.handle,
    curatorProfileUrl: person.profileUrl,
  };
}

/** The moderator fields the API answers beside a history entry's stored id: a handle key, or a NEAR account. */
export function moderatorFields(
  accountId: string,
  idType: "near" | "platform_username",
): { moderatorNetwork: Platform | null; moderatorHandle: string; moderatorProfileUrl: string | null } {
  if (idType === "near")
    return { moderatorNetwork: null, moderatorHandle: accountId, moderatorProfileUrl: null };
  const person = personOfKey(accountId);
  return {
    moderatorNetwork: person.network,
    moderatorHandle: person.handle,
    moderatorProfileUrl: person.profileUrl,
  };
}
