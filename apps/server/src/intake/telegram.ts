import { createHmac, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { createTelegramBotApi } from "../clients/telegram-bot.ts";
import { type AppEnv, isLoopbackHost } from "../config/env.ts";
import { postsFromUpdates, TelegramMentionSource } from "../sources/telegram.ts";
import type { MentionSource } from "../sources/types.ts";

export const TELEGRAM_WEBHOOK_PATH = "/api/telegram/webhook";

/**
 * Where Telegram pushes updates: only a public https PUBLIC_URL can take a webhook (Telegram refuses anything else),
 * so any other deployment polls.
 */
export function telegramWebhookOf(env: AppEnv): { url: string; secret: string } | null {
  if (!env.TELEGRAM_INTAKE_BOT_TOKEN) return null;
  const publicUrl = new URL(env.PUBLIC_URL);
  if (publicUrl.protocol !== "https:" || isLoopbackHost(publicUrl.hostname)) return null;
  return {
    url: `${env.PUBLIC_URL}${TELEGRAM_WEBHOOK_PATH}`,
    secret: env.TELEGRAM_WEBHOOK_SECRET ?? derivedSecret(env.TELEGRAM_INTAKE_BOT_TOKEN),
  };
}

/** Stable across restarts and workers without another variable to set, and useless for recovering the token. */
function derivedSecret(token: string): string {
  return createHmac("sha256", token).update("curate telegram webhook").digest("hex");
}

/** Compares digests, so neither the comparison's time nor a length difference tells how close a guess was. */
export function isTelegramWebhookSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const digest = (value: string) => createHmac("sha256", "telegram-secret-check").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export interface TelegramIntake {
  source: TelegramMentionSource;
  /** Set when updates come by webhook instead of polling. */
  webhook: { url: string; secret: string } | null;
}

export function createTelegramIntake(env: AppEnv, logger: Logger): TelegramIntake | null {
  if (!env.TELEGRAM_INTAKE_BOT_TOKEN) return null;
  const webhook = telegramWebhookOf(env);
  const api = createTelegramBotApi({
    apiRoot: env.TELEGRAM_API_BASE_URL,
    token: env.TELEGRAM_INTAKE_BOT_TOKEN,
    logger,
  });
  return { source: new TelegramMentionSource({ api, logger, webhook }), webhook };
}

/** A pushed update as a one-off source for the same intake pass polling uses; it moves no cursor. */
export async function webhookDelivery(
  intake: TelegramIntake,
  update: unknown,
  logger: Logger,
): Promise<MentionSource> {
  await intake.source.identify();
  const { posts } = postsFromUpdates([update], logger);
  const { source } = intake;
  return {
    key: source.key,
    platform: source.platform,
    botHandle: source.botHandle,
    mentionOptional: source.mentionOptional,
    fetchMentions: async () => ({ posts, cursor: null }),
  };
}
