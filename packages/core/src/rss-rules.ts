/** An RSS item's platform (document 1 §3), judged by the host of its link. */
export const RSS_PLATFORMS = ["twitter", "youtube", "github", "reddit", "other"] as const;
export type RssPlatform = (typeof RSS_PLATFORMS)[number];

export function isRssPlatform(value: unknown): value is RssPlatform {
  return typeof value === "string" && (RSS_PLATFORMS as readonly string[]).includes(value);
}

/** Where an item comes from, judged by the host of its link; anything unreadable is "other". */
export function rssPlatformOf(link: string | null | undefined): RssPlatform {
  if (!link) return "other";
  let host: string;
  try {
    host = new URL(link).hostname.replace(/^www\./, "");
  } catch {
    return "other";
  }
  if (host === "x.com" || host === "twitter.com" || host.endsWith(".twitter.com")) return "twitter";
  if (host === "youtube.com" || host === "youtu.be" || host.endsWith(".youtube.com")) return "youtube";
  if (host === "github.com" || host.endsWith(".github.com") || host.endsWith(".github.io")) return "github";
  if (host === "reddit.com" || host.endsWith(".reddit.com") || host === "redd.it") return "reddit";
  return "other";
}
