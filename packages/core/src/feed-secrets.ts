import { z } from "zod";

/**
 * A feed's own secrets (issue: "A feed's own credentials"): owners and admins store named values that the feed's
 * config references as `{{NAME}}`. Write-only: the API returns names and dates, never a value.
 */

/** The same names `{{NAME}}` placeholders take: an upper-case variable name. */
export const FEED_SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const FEED_SECRET_LIMITS = {
  /** Secrets one feed may hold. */
  perFeed: 50,
  /** Characters of one value (a PEM private key fits). */
  valueLength: 8192,
} as const;

export const feedSecretNameSchema = z
  .string()
  .regex(
    FEED_SECRET_NAME_PATTERN,
    "Use upper-case letters, digits and underscores, starting with a letter (at most 64), e.g. TELEGRAM_BOT_TOKEN",
  );

/** A stored secret as the API shows it: its name and when it was set, never its value. */
export const feedSecretSchema = z.object({
  name: z.string(),
  createdAt: z.string(),
  /** When the value was last set ("set on <date>"). */
  updatedAt: z.string(),
});
export type FeedSecret = z.infer<typeof feedSecretSchema>;

export const setFeedSecretBodySchema = z.object({
  value: z
    .string()
    .min(1, "Enter the secret's value")
    .max(FEED_SECRET_LIMITS.valueLength, `At most ${FEED_SECRET_LIMITS.valueLength} characters`)
    .refine((value) => value.trim().length > 0, "Enter the secret's value"),
});
export type SetFeedSecretBody = z.infer<typeof setFeedSecretBodySchema>;
