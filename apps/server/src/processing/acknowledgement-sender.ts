import { XRPCError } from "@atproto/api";
import { type AcknowledgementNetwork, PLATFORM_LABELS } from "@curate/core";
import { type Api, GrammyError } from "grammy";
import type { Logger } from "pino";
import { BlueskyClient } from "../clients/bluesky.ts";
import { abortable, ExternalServiceError, isRetryableStatus } from "../clients/http.ts";
import { MastodonApiError, MastodonClient } from "../clients/mastodon.ts";
import { createTelegramBotApi } from "../clients/telegram-bot.ts";
import { XApiClient, XApiError, XBudgetSpent } from "../clients/x-api.ts";
import type { AppEnv } from "../config/env.ts";
import { clientBudget, type XBudget } from "../intake/x-budget-store.ts";
import { PluginError } from "../plugins/types.ts";
import type { AcknowledgementInput, AcknowledgementSender, SentReply } from "./shared.ts";

type Env = Pick<
  AppEnv,
  | "X_API_BASE_URL"
  | "X_USER_ACCESS_TOKEN"
  | "BLUESKY_SERVICE_URL"
  | "BLUESKY_APPVIEW_URL"
  | "BLUESKY_IDENTIFIER"
  | "BLUESKY_APP_PASSWORD"
  | "MASTODON_BASE_URL"
  | "MASTODON_ACCESS_TOKEN"
  | "TELEGRAM_API_BASE_URL"
  | "TELEGRAM_INTAKE_BOT_TOKEN"
>;

/** What each network's bot needs, said when it is missing. */
const NEEDS: Record<AcknowledgementNetwork, string> = {
  twitter: "X_USER_ACCESS_TOKEN (the bot account's user token with tweet.write)",
  bluesky: "BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD",
  mastodon: "MASTODON_BASE_URL and MASTODON_ACCESS_TOKEN (with the write:statuses scope)",
  telegram: "TELEGRAM_INTAKE_BOT_TOKEN",
};

type Reply = (input: AcknowledgementInput, idempotencyKey: string) => Promise<SentReply | null>;

/** One bot per network from the environment the sources use, each made once, on its first reply. */
function networkReplies(
  env: Env,
  logger: Logger,
  xBudget: XBudget | undefined,
): Record<AcknowledgementNetwork, () => Reply | null> {
  const once = <T>(make: () => T) => {
    let made: T | undefined;
    return () => {
      made ??= make();
      return made;
    };
  };
  // Replies are not retried inside a call: a repeated POST could post twice, and the engine retries the step.
  return {
    twitter: once(() => {
      if (!env.X_USER_ACCESS_TOKEN) return null;
      const client = new XApiClient({
        baseUrl: env.X_API_BASE_URL,
        bearerToken: env.X_USER_ACCESS_TOKEN,
        logger,
        // A reply is a call of the operator's X app like any other; the budget keeps waiting replies aside.
        budget: xBudget && clientBudget(xBudget),
      });
      return (input) => client.reply(input.text, input.replyTo);
    }),
    bluesky: once(() => {
      if (!env.BLUESKY_IDENTIFIER || !env.BLUESKY_APP_PASSWORD) return null;
      const client = new BlueskyClient({
        serviceUrl: env.BLUESKY_SERVICE_URL,
        appViewUrl: env.BLUESKY_APPVIEW_URL,
        identifier: env.BLUESKY_IDENTIFIER,
        appPassword: env.BLUESKY_APP_PASSWORD,
        retries: 0,
        logger,
      });
      return async (input) => {
        const posted = await client.reply(input.replyTo, input.text);
        return posted && { id: posted.uri };
      };
    }),
    mastodon: once(() => {
      if (!env.MASTODON_BASE_URL || !env.MASTODON_ACCESS_TOKEN) return null;
      const client = new MastodonClient({
        baseUrl: env.MASTODON_BASE_URL,
        accessToken: env.MASTODON_ACCESS_TOKEN,
        maxRetries: 0,
        logger,
      });
      return (input, idempotencyKey) => client.reply(input.replyTo, input.text, idempotencyKey);
    }),
    telegram: once(() => {
      if (!env.TELEGRAM_INTAKE_BOT_TOKEN) return null;
      const api: Api = createTelegramBotApi({
        apiRoot: env.TELEGRAM_API_BASE_URL,
        token: env.TELEGRAM_INTAKE_BOT_TOKEN,
        retries: 0,
        logger,
      });
      return async (input) => {
        // `chat:message`; a chat id may be negative, a message id never has a colon.
        const at = input.replyTo.lastIndexOf(":");
        const message = await api.sendMessage(input.replyTo.slice(0, at), input.text, {
          reply_parameters: {
            message_id: Number(input.replyTo.slice(at + 1)),
            allow_sending_without_reply: true,
          },
        });
        return { id: `${message.chat.id}:${message.message_id}` };
      };
    }),
  };
}

/** A network's refusal or outage as the step records it: statuses that may pass are retryable. */
function refusal(network: AcknowledgementNetwork, error: unknown): unknown {
  const label = PLATFORM_LABELS[network];
  const answered = (status: number, message: string, retryAfterMs?: number) =>
    new PluginError(`${label} refused the reply: ${message}`, {
      code: status === 401 || status === 403 ? "ACK_REFUSED_CREDENTIALS" : "ACK_REFUSED",
      retryable: isRetryableStatus(status),
      retryAfterMs,
    });
  if (error instanceof XBudgetSpent) {
    // Nothing reached X: the operator's hourly X budget is spent, and the reply goes when the hour turns.
    return new PluginError(error.message, {
      code: "X_BUDGET_SPENT",
      retryable: true,
      retryAfterMs: error.retryAfterMs,
    });
  }
  if (error instanceof ExternalServiceError) {
    return new PluginError(error.message, {
      code: "ACK_UNAVAILABLE",
      retryable: error.retryable,
      retryAfterMs: error.retryAfterMs,
    });
  }
  if (error instanceof XApiError || error instanceof MastodonApiError) {
    return answered(error.status, error.message, error instanceof XApiError ? error.retryAfterMs : undefined);
  }
  if (error instanceof XRPCError) return answered(error.status, error.message);
  if (error instanceof GrammyError) {
    const seconds = error.parameters?.retry_after;
    return answered(error.error_code, error.description, seconds ? seconds * 1000 : undefined);
  }
  return error;
}

/** The bots of every network the environment configures; a network without credentials fails its step clearly. */
export function createAcknowledgementSender(
  env: Env,
  logger: Logger,
  xBudget?: XBudget,
): AcknowledgementSender {
  const replies = networkReplies(env, logger, xBudget);
  return {
    async send(input, idempotencyKey, signal) {
      const reply = replies[input.network]();
      if (!reply) {
        throw new PluginError(
          `Acknowledgements on ${PLATFORM_LABELS[input.network]} need ${NEEDS[input.network]} in the server's environment.`,
          { code: "ACK_NOT_CONFIGURED" },
        );
      }
      let sent: SentReply | null;
      try {
        sent = await abortable(reply(input, idempotencyKey), signal);
      } catch (error) {
        throw refusal(input.network, error);
      }
      if (!sent) {
        throw new PluginError(
          `${PLATFORM_LABELS[input.network]} no longer shows the post to reply to (deleted or hidden).`,
          { code: "ACK_TARGET_GONE" },
        );
      }
      return sent;
    },
  };
}
