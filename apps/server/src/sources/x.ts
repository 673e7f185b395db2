import type { XApiClient, XMedia, XPage, XPost } from "../clients/x-api.ts";
import type { FetchResult, MentionSource, PostMedia, SearchSource, SearchSpec, SocialPost } from "./types.ts";

const X_ESCAPES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * A post's text as its author wrote it: the whole of a long post, t.co links replaced by the addresses they stand
 * for, the link X appends for the post's own photo or video dropped (it is media), and the three characters X
 * escapes (&, <, >) unescaped in one pass, so a literal "&amp;lt;" stays as typed.
 */
export function xPostText(item: XPost): string {
  const text = item.note_tweet?.text ?? item.text;
  const urls = (item.note_tweet ? item.note_tweet.entities?.urls : item.entities?.urls) ?? [];
  const byShortLink = new Map(urls.map((entity) => [entity.url, entity]));
  return text
    .replace(/https:\/\/t\.co\/\w+/g, (short) => {
      const entity = byShortLink.get(short);
      if (!entity) return short;
      if (entity.media_key) return "";
      return entity.unwound_url ?? entity.expanded_url ?? short;
    })
    .replace(/&(?:amp|lt|gt);/g, (escaped) => X_ESCAPES[escaped])
    .replace(/[ \t]+$/gm, "")
    .trim();
}

function mediaOf(item: XPost, media: Map<string, XMedia>): PostMedia[] {
  return (item.attachments?.media_keys ?? []).flatMap((key) => {
    const item = media.get(key);
    const url = item?.url ?? item?.preview_image_url;
    if (!item || !url) return [];
    const type = item.type === "photo" ? "image" : item.type === "animated_gif" ? "gif" : "video";
    return [{ url, type, alt: item.alt_text ?? null }];
  });
}

function expandPage(page: XPage): SocialPost[] {
  const users = new Map((page.includes?.users ?? []).map((u) => [u.id, u]));
  const referenced = new Map((page.includes?.tweets ?? []).map((t) => [t.id, t]));
  const media = new Map((page.includes?.media ?? []).map((m) => [m.media_key, m]));
  const toPost = (item: XPost, depth: number): SocialPost => {
    const author = item.author_id ? users.get(item.author_id) : undefined;
    const repliedToId = item.referenced_tweets?.find((r) => r.type === "replied_to")?.id ?? null;
    const parent = repliedToId ? referenced.get(repliedToId) : undefined;
    const authorUsername = author?.username ?? item.author_id ?? "unknown";
    return {
      platform: "twitter",
      id: item.id,
      text: xPostText(item),
      authorDisplayName: author?.name ?? null,
      media: mediaOf(item, media),
      authorId: item.author_id ?? "unknown",
      authorUsername,
      url: `https://x.com/${authorUsername}/status/${item.id}`,
      authorProfileImage: author?.profile_image_url ?? null,
      createdAt: item.created_at ? new Date(item.created_at) : new Date(),
      inReplyToId: repliedToId,
      repliedTo: parent && depth === 0 ? toPost(parent, 1) : null,
    };
  };
  return (page.data ?? []).map((item) => toPost(item, 0));
}

/** Every page as posts, and the newest id seen (the cursor to save once they are stored). */
async function collect(
  client: XApiClient,
  path: string,
  params: Record<string, string | undefined>,
): Promise<FetchResult> {
  const pages = await client.pages(path, params);
  return { posts: pages.flatMap(expandPage), cursor: pages[0]?.meta?.newest_id ?? null };
}

export class XMentionSource implements MentionSource {
  private readonly client: XApiClient;
  readonly botHandle: string;
  private readonly pageSize: number;
  readonly key: string;
  readonly platform = "twitter";
  private botUserId: string | null = null;
  constructor(client: XApiClient, botHandle: string, pageSize = 100) {
    this.client = client;
    this.botHandle = botHandle;
    this.pageSize = pageSize;
    this.key = `x:mentions:${botHandle.toLowerCase()}`;
  }

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    this.botUserId ??= await this.client.userIdOf(this.botHandle);
    return collect(this.client, `/2/users/${this.botUserId}/mentions`, {
      since_id: cursor ?? undefined,
      max_results: String(this.pageSize),
    });
  }
}

export class XSearchSource implements SearchSource {
  private readonly client: XApiClient;

  constructor(client: XApiClient) {
    this.client = client;
  }

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    if (!spec.query) return { posts: [], cursor };
    const pageSize = String(Math.min(Math.max(spec.pageSize ?? 100, 10), 100));
    const result = await collect(this.client, "/2/tweets/search/recent", {
      query: spec.query,
      since_id: cursor ?? undefined,
      max_results: pageSize,
    });
    return { posts: result.posts, cursor: result.cursor ?? cursor };
  }
}
