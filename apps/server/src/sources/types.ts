/** A social post as intake sees it, whatever network or adapter it came from. */
export interface SocialPost {
  id: string;
  text: string;
  authorId: string;
  authorUsername: string;
  authorProfileImage?: string | null;
  /** The post's own address on its network, as the adapter knows it. */
  url: string;
  createdAt: Date;
  /** The post this one replies to, when it is a reply. */
  inReplyToId?: string | null;
  /** The replied-to post itself, when the adapter could expand it. */
  repliedTo?: SocialPost | null;
}

export interface FetchResult {
  posts: SocialPost[];
  /** Cursor to save once every post above is stored; null keeps the old one. */
  cursor: string | null;
}

/** Where the bot's mentions come from (X API v2, or test posts outside production). */
export interface MentionSource {
  readonly key: string;
  fetchMentions(cursor: string | null): Promise<FetchResult>;
}

export interface SearchSpec {
  type?: string;
  query?: string;
  pageSize?: number;
}

/** A feed source's search (X recent search, or test posts). */
export interface SearchSource {
  search(spec: SearchSpec, cursor: string | null): Promise<FetchResult>;
}

/** Newest-first APIs page backwards; intake applies posts oldest first so replies follow what they answer. */
export function oldestFirst(posts: SocialPost[]): SocialPost[] {
  return [...posts].sort((a, b) => compareIds(a.id, b.id));
}

export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
