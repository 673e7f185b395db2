import {
  type TelegramDistributorConfig,
  type TelegramParseMode,
  telegramDistributorConfigSchema,
} from "@curate/core";
import { Api, GrammyError, HttpError } from "grammy";
import { telegramFetch } from "../../clients/telegram-bot.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type RenderedDistribution,
  type RetractionOutcome,
} from "../types.ts";
import { cutText, type Post, postFrom } from "./content.ts";

export interface TelegramSettings {
  /** The Bot API's root (`TELEGRAM_API_BASE_URL`): Telegram's own, a local Bot API server, or a test fake. */
  apiRoot: string;
}

/** The Bot API's limit for a message's text, counted after entities are parsed (what the reader sees). */
export const TELEGRAM_TEXT_LIMIT = 4096;
const REQUEST_TIMEOUT_SECONDS = 30;

/** The sendMessage parameters this distributor sends (Bot API names). */
export interface TelegramSendMessage {
  chat_id: number | string;
  text: string;
  parse_mode?: "HTML" | "MarkdownV2";
  message_thread_id?: number;
  link_preview_options?: { is_disabled: true };
}

/** A run of the message's visible text; `shrink` orders which runs give way when the text is over the limit. */
interface Run {
  text: string;
  bold?: boolean;
  shrink?: number;
}

/**
 * The message's runs: the feed's own text when its transforms wrote one, else the title (bold), the body and the
 * link, a blank line apart. Telegram makes the link clickable itself, so no markup is needed for it.
 */
function runsOf(post: Post): Run[] {
  if (post.text) return [{ text: post.text, shrink: 1 }];
  const blocks: Run[] = [];
  if (post.title) blocks.push({ text: post.title, bold: true, shrink: 2 });
  if (post.body) blocks.push({ text: post.body, shrink: 1 });
  if (post.link) blocks.push({ text: post.link });
  return blocks.flatMap((run, i) => (i === 0 ? [run] : [{ text: "\n\n" }, run]));
}

/**
 * One message, never several: a publication that is one message is either sent or not, so a retry can never post
 * half of it twice. Over the limit, the body gives way first, then the title; the link is kept.
 */
function fitRuns(runs: Run[], limit: number): Run[] {
  const fitted = runs.map((run) => ({ ...run }));
  const length = () => fitted.reduce((sum, run) => sum + run.text.length, 0);
  const shrinkable = fitted.filter((run) => run.shrink !== undefined).sort((a, b) => a.shrink! - b.shrink!);
  for (const run of shrinkable) {
    const excess = length() - limit;
    if (excess <= 0) break;
    run.text = cutText(run.text, Math.max(0, run.text.length - excess));
  }
  return fitted.filter((run) => run.text !== "" || run.shrink === undefined);
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Every character the Bot API's MarkdownV2 reserves, and the backslash itself. */
const escapeMarkdownV2 = (text: string) => text.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, "\\$&");

function formatted(runs: Run[], mode: TelegramParseMode): string {
  return runs
    .map((run) => {
      if (mode === "HTML") return run.bold ? `<b>${escapeHtml(run.text)}</b>` : escapeHtml(run.text);
      if (mode === "MarkdownV2")
        return run.bold ? `*${escapeMarkdownV2(run.text)}*` : escapeMarkdownV2(run.text);
      return run.text;
    })
    .join("");
}

/** Numeric ids go as numbers, as the Bot API documents them; @usernames as text. */
const chatIdOf = (chatId: string) => (/^-?\d+$/.test(chatId) ? Number(chatId) : chatId);

function messageUrl(chat: { id: number; username?: string }, messageId: number): string | undefined {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  // Channels and supergroups are -100<id>; their members open a message as t.me/c/<id>/<message>.
  const internal = /^-100(\d+)$/.exec(String(chat.id))?.[1];
  return internal ? `https://t.me/c/${internal}/${messageId}` : undefined;
}

/** Telegram's answers as step errors that say what to fix; only rate limits and outages are retryable. */
function stepError(error: unknown, chatId: string): PluginError {
  if (error instanceof GrammyError) {
    const { error_code: status, description } = error;
    const cause = error;
    if (status === 401 || status === 404) {
      return new PluginError(
        "Telegram refused the bot token: check the variable behind botToken's {{NAME}} placeholder (the token @BotFather gave).",
        { code: CREDENTIALS_REJECTED, cause },
      );
    }
    if (status === 403) {
      return new PluginError(
        `Telegram does not let the bot post to ${chatId} (${description}): add the bot to the chat again and, in a channel, make it an admin allowed to post.`,
        { code: CREDENTIALS_REJECTED, cause },
      );
    }
    if (status === 429) {
      const seconds = error.parameters.retry_after;
      return new PluginError(
        `Telegram is rate limiting the bot (429)${seconds ? `; retry after ${seconds} s` : ""}.`,
        {
          code: "TELEGRAM_RATE_LIMITED",
          retryable: true,
          retryAfterMs: seconds ? seconds * 1000 : undefined,
          cause,
        },
      );
    }
    if (status >= 500) {
      return new PluginError(`Telegram failed (${status}): ${description}`, {
        code: "TELEGRAM_UNAVAILABLE",
        retryable: true,
        cause,
      });
    }
    if (error.parameters.migrate_to_chat_id) {
      return new PluginError(
        `The group ${chatId} became a supergroup: set chatId to ${error.parameters.migrate_to_chat_id}.`,
        { code: "TELEGRAM_CHAT_MIGRATED", cause },
      );
    }
    if (/chat not found/i.test(description)) {
      return new PluginError(
        `Telegram cannot find the chat ${chatId}: check chatId, and add the bot to the chat (in a channel, as an admin allowed to post).`,
        { code: "TELEGRAM_CHAT_NOT_FOUND", cause },
      );
    }
    if (/thread not found/i.test(description)) {
      return new PluginError(
        `The chat ${chatId} has no topic ${error.payload.message_thread_id}: check messageThreadId.`,
        {
          code: "TELEGRAM_TOPIC_NOT_FOUND",
          cause,
        },
      );
    }
    return new PluginError(`Telegram refused the message (${status}): ${description}`, {
      code: "TELEGRAM_REJECTED",
      cause,
    });
  }
  if (error instanceof HttpError) {
    return new PluginError("Telegram could not be reached.", {
      code: "TELEGRAM_UNREACHABLE",
      retryable: true,
      cause: error,
    });
  }
  return new PluginError(
    `The Telegram step failed: ${error instanceof Error ? error.message : String(error)}`,
    {
      code: "TELEGRAM_FAILED",
      cause: error,
    },
  );
}

/**
 * A message in a Telegram chat through the Bot API's sendMessage (grammY's Api against `apiRoot`). Telegram cannot
 * deduplicate a message, so a publication is always one message (trimmed at the limit, never split).
 */
export function createTelegramDistributor(
  settings: TelegramSettings,
): DistributorPlugin<TelegramDistributorConfig> {
  return {
    type: "distributor",
    name: "telegram",
    configSchema: telegramDistributorConfigSchema,
    // Telegram: about 30 messages a second per bot, and 20 a minute into one group.
    throttle: (config) => [
      { key: `bot:${config.botToken}`, intervalMs: 35 },
      { key: `chat:${config.botToken}:${config.chatId}`, intervalMs: 3000 },
    ],
    async render(input, config, context) {
      const mode = config.parseMode ?? "HTML";
      const runs = fitRuns(runsOf(postFrom(input)), TELEGRAM_TEXT_LIMIT);
      if (runs.length === 0) {
        throw new PluginError(
          "There is no text to send: give the item a title, content or link, or a text (a simple-transform's output).",
          { code: "TELEGRAM_EMPTY_MESSAGE" },
        );
      }
      const request: TelegramSendMessage = {
        chat_id: chatIdOf(config.chatId),
        text: formatted(runs, mode),
        ...(mode === "none" ? {} : { parse_mode: mode }),
        ...(config.messageThreadId ? { message_thread_id: config.messageThreadId } : {}),
        ...(config.disableLinkPreview ? { link_preview_options: { is_disabled: true as const } } : {}),
      };
      const edit = context.replay ? telegramEditOf(request, context.replay.receipt) : null;
      return edit
        ? { action: "editMessageText", request: edit, edits: true }
        : { action: "sendMessage", request };
    },
    async send(rendered, config, context) {
      const api = new Api(config.botToken, {
        apiRoot: settings.apiRoot,
        timeoutSeconds: REQUEST_TIMEOUT_SECONDS,
        fetch: telegramFetch(settings.apiRoot) as never,
      });
      if (rendered.action === "editMessageText") return sendTelegramEdit(api, rendered, config, context);
      try {
        const message = await api.raw.sendMessage(
          rendered.request as TelegramSendMessage,
          // grammY declares the abort-controller package's signal type; Node's own signal is what it uses at run time.
          context.signal as unknown as Parameters<typeof api.raw.sendMessage>[1],
        );
        const url = messageUrl(message.chat, message.message_id);
        return {
          messageId: message.message_id,
          chatId: message.chat.id,
          reference: { kind: "telegram-message", id: `${message.chat.id}/${message.message_id}`, url },
        };
      } catch (error) {
        throw stepError(error, config.chatId);
      }
    },
    retract: (receipt, config, context) => retractTelegramMessage(settings, receipt, config, context),
  };
}

// --- Replays (decision 0015): a replay edits the message the branch published before, with editMessageText. ---

/** The editMessageText parameters this distributor sends on a replay (Bot API names). */
export interface TelegramEditMessageText {
  chat_id: number | string;
  message_id: number;
  text: string;
  parse_mode?: "HTML" | "MarkdownV2";
  link_preview_options?: { is_disabled: true };
}

/** The edit of the earlier message, when its receipt says which one it was (else the replay posts anew). */
function telegramEditOf(
  request: TelegramSendMessage,
  receipt: DistributionReceipt,
): TelegramEditMessageText | null {
  const messageId = receipt.messageId;
  const chatId = receipt.chatId;
  if (typeof messageId !== "number" || (typeof chatId !== "number" && typeof chatId !== "string"))
    return null;
  return {
    chat_id: chatId,
    message_id: messageId,
    text: request.text,
    ...(request.parse_mode ? { parse_mode: request.parse_mode } : {}),
    ...(request.link_preview_options ? { link_preview_options: request.link_preview_options } : {}),
  };
}

async function sendTelegramEdit(
  api: Api,
  rendered: RenderedDistribution,
  config: TelegramDistributorConfig,
  context: PluginContext,
): Promise<DistributionReceipt> {
  const request = rendered.request as TelegramEditMessageText;
  const receipt = (message: { chat: { id: number; username?: string }; message_id: number } | null) => {
    // Unchanged (no message comes back): the earlier publication stands as its receipt said.
    if (!message) return { ...context.replay?.receipt, edited: false };
    return {
      messageId: message.message_id,
      chatId: message.chat.id,
      edited: true,
      reference: {
        kind: "telegram-message",
        id: `${message.chat.id}/${message.message_id}`,
        url: messageUrl(message.chat, message.message_id),
      },
    };
  };
  try {
    const message = await api.raw.editMessageText(
      request,
      context.signal as unknown as Parameters<typeof api.raw.editMessageText>[1],
    );
    return receipt(typeof message === "object" ? message : null);
  } catch (error) {
    // The text is already what the replay would write: the publication is as it should be.
    if (error instanceof GrammyError && /message is not modified/i.test(error.description))
      return receipt(null);
    if (error instanceof GrammyError && /message to edit not found/i.test(error.description)) {
      throw new PluginError(
        `Telegram cannot find message ${request.message_id} in ${request.chat_id} to edit: it was deleted from the chat.`,
        { code: "TELEGRAM_EDIT_NOT_FOUND", cause: error },
      );
    }
    throw stepError(error, config.chatId);
  }
}

/**
 * Retraction: the Bot API's deleteMessage on the message the send made (its chat and message id from the receipt).
 * A message already deleted counts as retracted; one Telegram no longer lets the bot delete (older than 48 hours in
 * a group) is an error saying so.
 */
export async function retractTelegramMessage(
  settings: TelegramSettings,
  receipt: DistributionReceipt,
  config: TelegramDistributorConfig,
  context: PluginContext,
): Promise<RetractionOutcome> {
  const [chatPart, messagePart] = (receipt.reference?.id ?? "").split("/");
  const chatId = typeof receipt.chatId === "number" ? receipt.chatId : Number(chatPart);
  const messageId = typeof receipt.messageId === "number" ? receipt.messageId : Number(messagePart);
  if (!Number.isSafeInteger(chatId) || !Number.isSafeInteger(messageId)) {
    return {
      retracted: false,
      reason: "The send did not record the Telegram message's id, so it cannot be found to delete.",
    };
  }
  const api = new Api(config.botToken, {
    apiRoot: settings.apiRoot,
    timeoutSeconds: REQUEST_TIMEOUT_SECONDS,
    fetch: telegramFetch(settings.apiRoot) as never,
  });
  try {
    await api.raw.deleteMessage(
      { chat_id: chatId, message_id: messageId },
      context.signal as unknown as Parameters<typeof api.raw.deleteMessage>[1],
    );
    return { retracted: true, chatId, messageId };
  } catch (error) {
    if (error instanceof GrammyError && error.error_code === 400) {
      if (/message to delete not found/i.test(error.description)) {
        return { retracted: true, alreadyGone: true, chatId, messageId };
      }
      if (/can't be deleted/i.test(error.description)) {
        throw new PluginError(
          `Telegram no longer lets the bot delete message ${messageId} (${error.description}): bots may delete their messages in groups for 48 hours; delete it in the chat by hand.`,
          { code: "TELEGRAM_CANNOT_DELETE", cause: error },
        );
      }
    }
    throw stepError(error, config.chatId);
  }
}
