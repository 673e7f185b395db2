import { z } from "zod";

/**
 * One update as Telegram pushes it to the intake webhook. Only its id is required here: what a message holds is
 * read leniently by the Telegram source, which skips (and logs) a message it cannot read rather than refusing the
 * delivery, since Telegram would only send the same update again.
 */
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int().nonnegative(),
});
export type TelegramUpdate = z.infer<typeof telegramUpdateSchema>;

/** What intake made of a delivered update. */
export const telegramWebhookResultSchema = z.object({
  read: z.number(),
  submitted: z.number(),
  moderated: z.number(),
});
export type TelegramWebhookResult = z.infer<typeof telegramWebhookResultSchema>;
