import { normaliseFeedId, SUGGESTED_UNDO_WINDOW_SECONDS } from "./feed-rules.ts";
import type { FeedConfig } from "./feeds.ts";
import { PLUGINS } from "./plugins.ts";

/**
 * The create wizard's draft and the feed config it becomes. The draft holds only what the user chooses;
 * everything derived (stream transforms, the RSS distributor named after the feed, approvers by platform)
 * is built from it, so the RSS title always matches the final name and a reload cannot leave stale parts.
 */

export const WIZARD_APPROVER_PLATFORMS = ["Twitter"] as const;
export type ApproverPlatform = (typeof WIZARD_APPROVER_PLATFORMS)[number];

export interface ApproverDraft {
  handle: string;
  platform: ApproverPlatform;
}

export interface TelegramDraft {
  /** A channel handle (@name) or a numeric chat id. */
  chatId: string;
  /** The topic of a forum group; empty for none. */
  messageThreadId: string;
}

export interface FeedDraft {
  name: string;
  description: string;
  id: string;
  image: string;
  enabled: boolean;
  approvers: ApproverDraft[];
  /** null while the Telegram distributor is switched off. */
  telegram: TelegramDraft | null;
}

export const EMPTY_FEED_DRAFT: FeedDraft = {
  name: "",
  description: "",
  id: "",
  image: "",
  enabled: true,
  approvers: [],
  telegram: null,
};

export const AI_SUMMARY_PROMPT =
  "Summarise this curated post for the feed's readers: a short neutral title, two or three plain sentences " +
  "of summary, and up to three topic tags. Keep the facts; leave out hype.";

type Step = { plugin: string; config: Record<string, unknown> };
type Distributor = Step & { transform?: Step[] };

/** The two transforms every new feed's stream starts with: map the submission, then summarise it with AI. */
export function defaultStreamTransforms(): Step[] {
  return [
    {
      plugin: PLUGINS.objectTransform,
      config: {
        mappings: {
          notes: "{{curatorNotes}}",
          author: "{{username}}",
          // The post's own address, on whichever network it came from.
          source: "{{url}}",
          content: "{{content}}",
          submittedAt: "{{submittedAt}}",
        },
      },
    },
    {
      plugin: PLUGINS.aiTransform,
      config: {
        prompt: AI_SUMMARY_PROMPT,
        apiKey: "{{AI_API_KEY}}",
        outputFormat: "json",
        schema: {
          tags: { type: "array", items: { type: "string" }, description: "Up to three topic tags" },
          title: { type: "string", description: "A headline of at most 80 characters" },
          summary: { type: "string", description: "Two or three plain sentences" },
        },
      },
    },
  ];
}

/** Where this deployment publishes a feed's page and its RSS files (`{serviceUrl}/{feedId}/rss.xml`). */
export function feedUrls(origin: string, feedId: string) {
  const base = origin.replace(/\/+$/, "");
  return { siteUrl: `${base}/feed/${feedId}`, serviceUrl: `${base}/rss` };
}

export function rssDistributor(feed: { id: string; name: string; description: string }, origin: string) {
  const { siteUrl, serviceUrl } = feedUrls(origin, feed.id);
  return {
    plugin: PLUGINS.rss,
    config: {
      feedConfig: { title: feed.name, description: feed.description, siteUrl },
      // This deployment's own RSS service takes its items in-process and needs no secret.
      serviceUrl,
    },
    transform: [
      {
        plugin: PLUGINS.objectTransform,
        config: {
          mappings: {
            title: "{{title}}",
            description: "{{summary}}",
            link: "{{source}}",
            publishedAt: "{{submittedAt}}",
            author: { name: "{{author}}", link: "{{authorUrl}}" },
            categories: [feed.id],
          },
        },
      },
    ],
  } satisfies Distributor;
}

export function telegramDistributor(telegram: TelegramDraft): Distributor {
  const config: Record<string, unknown> = {
    botToken: "{{TELEGRAM_BOT_TOKEN}}",
    chatId: telegram.chatId.trim(),
  };
  const thread = telegram.messageThreadId.trim();
  if (thread) config.messageThreadId = thread;
  return { plugin: PLUGINS.telegram, config };
}

/** Approvers keyed by lower-cased platform, handles trimmed, without a leading @ and without repeats. */
export function approversByPlatform(approvers: readonly ApproverDraft[]): Record<string, string[]> {
  const byPlatform: Record<string, string[]> = {};
  for (const { handle, platform } of approvers) {
    const clean = handle.trim().replace(/^@+/, "");
    if (!clean) continue;
    const key = platform.toLowerCase();
    const list = byPlatform[key] ?? [];
    if (!list.some((existing) => existing.toLowerCase() === clean.toLowerCase())) list.push(clean);
    byPlatform[key] = list;
  }
  return byPlatform;
}

/** The hashtag as the user types it becomes the feed id: lower case, no leading #, no spaces. */
export function normaliseHashtag(value: string): string {
  return normaliseFeedId(value.replace(/\s+/g, ""));
}

/** The config POST /api/feeds receives for a draft; `origin` is the deployment's own address. */
export function feedConfigFromDraft(draft: FeedDraft, origin: string): FeedConfig {
  const id = normaliseHashtag(draft.id);
  const distribute: Distributor[] = [];
  if (id)
    distribute.push(
      rssDistributor({ id, name: draft.name.trim(), description: draft.description.trim() }, origin),
    );
  if (draft.telegram) distribute.push(telegramDistributor(draft.telegram));
  return {
    id,
    name: draft.name.trim(),
    description: draft.description.trim(),
    image: draft.image.trim(),
    enabled: draft.enabled,
    // A mistaken approval can be taken back for a few seconds (the edit page changes or removes it).
    moderation: {
      approvers: approversByPlatform(draft.approvers),
      undoWindowSeconds: SUGGESTED_UNDO_WINDOW_SECONDS,
    },
    outputs: { stream: { enabled: true, transform: defaultStreamTransforms(), distribute } },
  };
}
