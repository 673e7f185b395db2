import { type DiscordDistributorConfig, discordDistributorConfigSchema } from "@curate/core";
import { callExternal, ExternalServiceError } from "../../clients/http.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type RenderedDistribution,
  type RetractionOutcome,
} from "../types.ts";
import { cutText, postFrom } from "./content.ts";

export interface DiscordSettings {
  /** Discord's REST API without its version (`DISCORD_API_BASE_URL`, `https://discord.com/api`). */
  apiBaseUrl: string;
}

const API_VERSION = "v10";
const TIMEOUT_MS = 15_000;

/** Discord's limits on a message (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  authorName: 256,
  embedTotal: 6000,
  nonce: 25,
} as const;

export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  author?: { name: string };
  image?: { url: string };
  fields?: Array<{ name: string; value: string; inline?: boolean }>;
}

/** A message body as Discord's create-message and execute-webhook endpoints take it. */
export interface DiscordMessage {
  content?: string;
  embeds?: DiscordEmbed[];
  /** No @everyone, @here, role or user pings, whatever the text says. */
  allowed_mentions: { parse: [] };
  username?: string;
  avatar_url?: string;
  nonce?: string;
  enforce_nonce?: boolean;
}

export type DiscordRequest =
  | { target: "webhook"; webhookId: string; threadId?: string; body: DiscordMessage; editMessageId?: string }
  | { target: "channel"; channelId: string; body: DiscordMessage; editMessageId?: string };

/** Markdown and mention syntax, escaped so a post's text shows as written. */
const MARKDOWN = /[\\*_~`|>#\-[\]()<]/g;
const escapeMarkdown = (text: string) => text.replace(MARKDOWN, "\\$&");
const escapedLength = (grapheme: string) => grapheme.length + (grapheme.match(MARKDOWN)?.length ?? 0);

/** `text` escaped and cut so that the escaped form fits `max` (never ending inside an escape). */
const fitted = (text: string, max: number) => escapeMarkdown(cutText(text, max, escapedLength));

function inputFields(input: unknown): Array<{ name: string; value: string; inline?: boolean }> {
  const raw = input && typeof input === "object" ? (input as { fields?: unknown }).fields : undefined;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((field) => {
    if (!field || typeof field !== "object") return [];
    const { name, value, inline } = field as Record<string, unknown>;
    if (typeof name !== "string" || !name.trim() || value === undefined || value === null) return [];
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.trim() ? [{ name, value: text, ...(typeof inline === "boolean" ? { inline } : {}) }] : [];
  });
}

const embedLength = (embed: DiscordEmbed) =>
  (embed.title?.length ?? 0) +
  (embed.description?.length ?? 0) +
  (embed.author?.name.length ?? 0) +
  (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0);

/**
 * The embed: title, body, link, author, image, date, and the input's `fields` (or its tags as one field). Over
 * Discord's 6000-character total, the description gives way first, then fields from the last.
 */
function embedOf(input: unknown): DiscordEmbed | null {
  const post = postFrom(input);
  const fields = inputFields(input);
  const all = fields.length
    ? fields
    : post.tags.length
      ? [{ name: "Tags", value: post.tags.join(", ") }]
      : [];
  const embed: DiscordEmbed = {
    ...(post.title ? { title: fitted(post.title, DISCORD_LIMITS.title) } : {}),
    ...(post.body ? { description: fitted(post.body, DISCORD_LIMITS.description) } : {}),
    ...(post.link ? { url: post.link } : {}),
    ...(post.publishedAt ? { timestamp: post.publishedAt } : {}),
    ...(post.author ? { author: { name: cutText(post.author, DISCORD_LIMITS.authorName) } } : {}),
    ...(post.image ? { image: { url: post.image } } : {}),
    ...(all.length
      ? {
          fields: all.slice(0, DISCORD_LIMITS.fields).map((field) => ({
            name: fitted(field.name, DISCORD_LIMITS.fieldName),
            value: fitted(field.value, DISCORD_LIMITS.fieldValue),
            ...("inline" in field ? { inline: field.inline } : {}),
          })),
        }
      : {}),
  };
  if (!embed.title && !embed.description && !embed.url && !embed.image && !embed.fields) return null;
  let excess = embedLength(embed) - DISCORD_LIMITS.embedTotal;
  if (excess > 0 && post.body && embed.description) {
    embed.description = fitted(post.body, Math.max(0, embed.description.length - excess));
    if (!embed.description) delete embed.description;
  }
  excess = embedLength(embed) - DISCORD_LIMITS.embedTotal;
  while (excess > 0 && embed.fields?.length) {
    embed.fields.pop();
    excess = embedLength(embed) - DISCORD_LIMITS.embedTotal;
  }
  if (embed.fields?.length === 0) delete embed.fields;
  return embed;
}

/** Text for a plain message: the feed's own text, else the title, body and link a blank line apart. */
function plainContent(input: unknown): string | null {
  const post = postFrom(input);
  if (post.text) return fitted(post.text, DISCORD_LIMITS.content);
  const link = post.link ? `\n\n${post.link}` : "";
  const text = [post.title, post.body].filter(Boolean).join("\n\n");
  if (!text) return post.link;
  return `${fitted(text, DISCORD_LIMITS.content - link.length)}${link}`;
}

const DISCORD_HOSTS = ["discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"];

/**
 * The webhook's id and token from its URL, which must point at the Discord API this server uses: the URL is a
 * secret any variable may fill, so its host is checked before the token goes anywhere.
 */
function webhookOf(webhookUrl: string, apiBase: URL): { id: string; token: string } {
  let url: URL;
  try {
    url = new URL(webhookUrl);
  } catch {
    throw new PluginError(
      "webhookUrl's variable does not hold a URL: copy the webhook's URL from the channel's settings → Integrations → Webhooks.",
      { code: "DISCORD_WEBHOOK_INVALID" },
    );
  }
  const hosts = apiBase.host === "discord.com" ? DISCORD_HOSTS : [apiBase.host];
  if (!hosts.includes(url.host) || url.protocol !== apiBase.protocol) {
    throw new PluginError(
      `webhookUrl points at ${url.host}, not at Discord (${apiBase.host}): it must be a Discord webhook's URL.`,
      { code: "DISCORD_WEBHOOK_INVALID" },
    );
  }
  const match = /\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([\w-]+)\/?$/.exec(url.pathname);
  if (!match) {
    throw new PluginError(
      "webhookUrl is not a Discord webhook URL (…/api/webhooks/<id>/<token>): copy it from the channel's settings → Integrations → Webhooks.",
      { code: "DISCORD_WEBHOOK_INVALID" },
    );
  }
  return { id: match[1], token: match[2] };
}

interface DiscordErrorBody {
  code?: number;
  message?: string;
  errors?: unknown;
}

/** "embeds.0.title: Must be 256 or fewer in length." from Discord's nested `errors` object. */
function formErrors(errors: unknown, path: string[] = []): string[] {
  if (!errors || typeof errors !== "object") return [];
  return Object.entries(errors as Record<string, unknown>).flatMap(([key, value]) => {
    if (key === "_errors" && Array.isArray(value)) {
      return value.map(
        (e) => `${path.join(".") || "body"}: ${(e as { message?: string }).message ?? "invalid"}`,
      );
    }
    return formErrors(value, [...path, key]);
  });
}

function answerError(status: number, body: DiscordErrorBody, request: DiscordRequest): PluginError {
  const said = body.message ? ` (${body.code ?? status}: ${body.message})` : ` (${status})`;
  if (status === 401) {
    return new PluginError(
      request.target === "webhook"
        ? `Discord refused the webhook's token${said}: the webhook was deleted or reset; put its current URL in webhookUrl's variable.`
        : `Discord refused the bot token${said}: check the variable behind botToken.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (status === 403) {
    return new PluginError(
      `Discord does not let the bot post in channel ${request.target === "channel" ? request.channelId : ""}${said}: give it View Channel, Send Messages and Embed Links there.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (status === 404) {
    return new PluginError(
      request.target === "webhook"
        ? `Discord has no such webhook${request.threadId ? " or thread" : ""}${said}: create one in the channel's settings and put its URL in webhookUrl's variable${request.threadId ? ", and check threadId" : ""}.`
        : `Discord has no channel ${request.channelId} the bot can see${said}: check channelId.`,
      { code: "DISCORD_NOT_FOUND" },
    );
  }
  const details = formErrors(body.errors);
  return new PluginError(
    `Discord refused the message${said}${details.length ? `: ${details.join("; ")}` : "."}`,
    {
      code: "DISCORD_REJECTED",
    },
  );
}

async function retryAfter(response: Response): Promise<number | null> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { retry_after?: unknown } | null;
  return typeof body?.retry_after === "number" ? Math.ceil(body.retry_after * 1000) : null;
}

/**
 * A message in a Discord channel, through a channel webhook (`?wait=true`, so the message comes back) or a bot
 * token and the channel's id. Mentions never ping; markdown in the post is escaped. Bot messages carry the
 * publication's key as an enforced nonce, so Discord keeps one message per publication for a few minutes; a webhook
 * message cannot be deduplicated.
 */
export function createDiscordDistributor(
  settings: DiscordSettings,
): DistributorPlugin<DiscordDistributorConfig> {
  const apiBase = new URL(settings.apiBaseUrl.replace(/\/+$/, ""));
  return {
    type: "distributor",
    name: "discord",
    configSchema: discordDistributorConfigSchema,
    // Discord: a webhook takes about 30 messages a minute; a bot about 5 per 5 seconds in one channel.
    throttle: (config) =>
      config.webhookUrl
        ? [{ key: `webhook:${config.webhookUrl}`, intervalMs: 2000 }]
        : [{ key: `channel:${config.channelId}`, intervalMs: 1000 }],
    async render(input, config, context) {
      const embed = config.embed === false ? null : embedOf(input);
      const text = embed ? postFrom(input).text : plainContent(input);
      if (!embed && !text) {
        throw new PluginError(
          "There is nothing to post: give the item a title, content or link, or a text.",
          {
            code: "DISCORD_EMPTY_MESSAGE",
          },
        );
      }
      const body: DiscordMessage = {
        ...(text ? { content: embed ? fitted(text, DISCORD_LIMITS.content) : text } : {}),
        ...(embed ? { embeds: [embed] } : {}),
        allowed_mentions: { parse: [] },
      };
      if (config.webhookUrl) {
        const { id } = webhookOf(config.webhookUrl, apiBase);
        if (config.username) body.username = config.username;
        if (config.avatarUrl) body.avatar_url = config.avatarUrl;
        const request: DiscordRequest = {
          target: "webhook",
          webhookId: id,
          ...(config.threadId ? { threadId: config.threadId } : {}),
          body,
        };
        if (context.replay)
          return discordEditOf(request, context.replay.receipt) ?? { action: "executeWebhook", request };
        return { action: "executeWebhook", request };
      }
      if (!config.botToken || !config.channelId) {
        throw new PluginError(
          "Set webhookUrl, or botToken and channelId: the variables they name are not set.",
          {
            code: "DISCORD_NOT_CONFIGURED",
          },
        );
      }
      if (context.replay) {
        const edit = discordEditOf(
          { target: "channel", channelId: config.channelId, body },
          context.replay.receipt,
        );
        if (edit) return edit;
      }
      if (context.idempotencyKey) {
        body.nonce = context.idempotencyKey.slice(0, DISCORD_LIMITS.nonce);
        body.enforce_nonce = true;
      }
      const request: DiscordRequest = { target: "channel", channelId: config.channelId, body };
      return { action: "createMessage", request };
    },
    async send(rendered, config, context) {
      const request = rendered.request as DiscordRequest;
      const base = `${apiBase.href.replace(/\/+$/, "")}/${API_VERSION}`;
      let url: string;
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (request.target === "webhook") {
        const { id, token } = webhookOf(config.webhookUrl ?? "", apiBase);
        const query = new URLSearchParams({
          wait: "true",
          ...(request.threadId ? { thread_id: request.threadId } : {}),
        });
        url = `${base}/webhooks/${id}/${token}${editPath(request)}?${query}`;
      } else {
        url = `${base}/channels/${request.channelId}/messages${editPath(request)}`;
        headers.Authorization = `Bot ${config.botToken}`;
      }
      let response: Response;
      try {
        response = await callExternal(
          url,
          {
            method: request.editMessageId ? "PATCH" : "POST",
            headers,
            body: JSON.stringify(request.body),
            signal: context.signal,
          },
          {
            service: "Discord",
            reach: "configured",
            timeoutMs: TIMEOUT_MS,
            retries: 0,
            waitHint: retryAfter,
          },
        );
      } catch (error) {
        if (error instanceof ExternalServiceError) {
          // Not the client's own message: the path it names holds a webhook's token.
          const limited = error.status === 429;
          const message = limited
            ? `Discord is rate limiting this ${request.target === "webhook" ? "webhook" : "bot"} (429).`
            : error.status
              ? `Discord failed (${error.status}).`
              : `Discord ${/timed out/.test(error.message) ? "did not answer in time" : "could not be reached"}.`;
          throw new PluginError(message, {
            code: limited ? "DISCORD_RATE_LIMITED" : "DISCORD_UNAVAILABLE",
            retryable: true,
            retryAfterMs: error.retryAfterMs,
            cause: error,
          });
        }
        throw error;
      }
      const answer = (await response.json().catch(() => ({}))) as DiscordErrorBody & {
        id?: string;
        channel_id?: string;
        guild_id?: string;
      };
      if (!response.ok) throw answerError(response.status, answer, request);
      const guild = answer.guild_id ?? config.guildId;
      return {
        ...(request.editMessageId ? { edited: true } : {}),
        messageId: answer.id,
        channelId: answer.channel_id,
        reference: {
          kind: "discord-message",
          id: answer.id,
          url:
            guild && answer.channel_id
              ? `https://discord.com/channels/${guild}/${answer.channel_id}/${answer.id}`
              : undefined,
        },
      };
    },
    retract: (receipt, config, context) => retractDiscordMessage(apiBase, receipt, config, context),
  };
}

// --- Replays (decision 0015): a replay edits the message the branch published before (edit webhook message, or
// edit message with the bot), instead of posting a second one. ---

/** The edit of the earlier message, when its receipt names it; null posts anew. */
function discordEditOf(request: DiscordRequest, receipt: DistributionReceipt): RenderedDistribution | null {
  const messageId = receipt.messageId;
  if (typeof messageId !== "string" || !/^\d+$/.test(messageId)) return null;
  // An edit keeps the message's author: a webhook's name and avatar, a nonce, belong to creating it only.
  const {
    username: _username,
    avatar_url: _avatar,
    nonce: _nonce,
    enforce_nonce: _enforce,
    ...body
  } = request.body;
  return {
    action: request.target === "webhook" ? "editWebhookMessage" : "editMessage",
    request: { ...request, body, editMessageId: messageId },
    edits: true,
  };
}

/** The edited message's path after the webhook's (`/messages/{id}`) or the channel's messages (`/{id}`). */
const editPath = (request: DiscordRequest) => {
  if (!request.editMessageId) return "";
  return request.target === "webhook" ? `/messages/${request.editMessageId}` : `/${request.editMessageId}`;
};

/**
 * Retraction: deletes the message the send made — through the webhook that posted it (`DELETE
 * /webhooks/{id}/{token}/messages/{message_id}`, in its thread when it posted in one) or as the bot (`DELETE
 * /channels/{channel_id}/messages/{message_id}`). A message already deleted (Unknown Message) counts as retracted.
 */
export async function retractDiscordMessage(
  apiBase: URL,
  receipt: DistributionReceipt,
  config: DiscordDistributorConfig,
  context: PluginContext,
): Promise<RetractionOutcome> {
  const messageId = String(receipt.messageId ?? receipt.reference?.id ?? "");
  if (!/^\d+$/.test(messageId)) {
    return {
      retracted: false,
      reason: "The send did not record the Discord message's id, so it cannot be found to delete.",
    };
  }
  const base = `${apiBase.href.replace(/\/+$/, "")}/${API_VERSION}`;
  const headers: Record<string, string> = {};
  let url: string;
  const viaWebhook = !!config.webhookUrl;
  if (viaWebhook) {
    const { id, token } = webhookOf(config.webhookUrl ?? "", apiBase);
    const query = config.threadId ? `?${new URLSearchParams({ thread_id: config.threadId })}` : "";
    url = `${base}/webhooks/${id}/${token}/messages/${messageId}${query}`;
  } else {
    const channelId = String(receipt.channelId ?? config.channelId ?? "");
    if (!/^\d+$/.test(channelId) || !config.botToken) {
      return {
        retracted: false,
        reason: "Neither the webhook nor the bot's channel is known, so the message cannot be deleted.",
      };
    }
    url = `${base}/channels/${channelId}/messages/${messageId}`;
    headers.Authorization = `Bot ${config.botToken}`;
  }
  let response: Response;
  try {
    response = await callExternal(
      url,
      { method: "DELETE", headers, signal: context.signal },
      { service: "Discord", reach: "configured", timeoutMs: TIMEOUT_MS, retries: 0, waitHint: retryAfter },
    );
  } catch (error) {
    if (error instanceof ExternalServiceError) {
      const limited = error.status === 429;
      throw new PluginError(
        limited
          ? "Discord is rate limiting deletions (429)."
          : error.status
            ? `Discord failed (${error.status}).`
            : "Discord could not be reached.",
        {
          code: limited ? "DISCORD_RATE_LIMITED" : "DISCORD_UNAVAILABLE",
          retryable: true,
          retryAfterMs: error.retryAfterMs,
          cause: error,
        },
      );
    }
    throw error;
  }
  if (response.ok) {
    await response.body?.cancel();
    return { retracted: true, messageId };
  }
  const answer = (await response.json().catch(() => ({}))) as DiscordErrorBody;
  if (response.status === 404 && answer.code === 10008)
    return { retracted: true, alreadyGone: true, messageId };
  const said = answer.message
    ? ` (${answer.code ?? response.status}: ${answer.message})`
    : ` (${response.status})`;
  if (response.status === 401 || response.status === 403) {
    throw new PluginError(
      viaWebhook
        ? `Discord refused to delete the message through the webhook${said}: a webhook deletes only its own messages, and only while it exists.`
        : `Discord does not let the bot delete the message${said}: check its token and its permissions in the channel.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (response.status === 404) {
    throw new PluginError(`Discord has no such ${viaWebhook ? "webhook" : "channel"} any more${said}.`, {
      code: "DISCORD_NOT_FOUND",
    });
  }
  throw new PluginError(`Discord refused to delete the message${said}.`, { code: "DISCORD_REJECTED" });
}
