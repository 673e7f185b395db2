/**
 * An RSS item's platform, judged by its link: document 1 §3's values, with the networks Curate also reads posts
 * from (issue 18) before the catch-all "other".
 */
export const RSS_PLATFORMS = [
  "twitter",
  "youtube",
  "github",
  "reddit",
  "bluesky",
  "mastodon",
  "telegram",
  "other",
] as const;
export type RssPlatform = (typeof RSS_PLATFORMS)[number];

export function isRssPlatform(value: unknown): value is RssPlatform {
  return typeof value === "string" && (RSS_PLATFORMS as readonly string[]).includes(value);
}

/** Where an item comes from, judged by the host of its link; anything unreadable is "other". */
export function rssPlatformOf(link: string | null | undefined): RssPlatform {
  if (!link) return "other";
  let host: string;
  let path: string;
  try {
    const url = new URL(link);
    host = url.hostname.replace(/^www\./, "");
    path = url.pathname;
  } catch {
    return "other";
  }
  if (host === "x.com" || host === "twitter.com" || host.endsWith(".twitter.com")) return "twitter";
  if (host === "youtube.com" || host === "youtu.be" || host.endsWith(".youtube.com")) return "youtube";
  if (host === "github.com" || host.endsWith(".github.com") || host.endsWith(".github.io")) return "github";
  if (host === "reddit.com" || host.endsWith(".reddit.com") || host === "redd.it") return "reddit";
  if (host === "bsky.app") return "bluesky";
  if (host === "t.me" || host === "telegram.me") return "telegram";
  // Mastodon lives on any host; its statuses' addresses have one shape: /@user/<numeric id>.
  if (/^\/@[^/]+\/\d+\/?$/.test(path)) return "mastodon";
  return "other";
}
