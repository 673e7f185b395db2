import { z } from "zod";
import { EMAIL_LIMITS, EMAIL_MODES } from "./email-rules.ts";
import { pagedSchema, pageQuery } from "./envelope.ts";
import { feedIdSchema } from "./feeds.ts";

/**
 * Contracts of the email newsletter endpoints (issue 34). Readers need no account: the confirmation, manage and
 * unsubscribe links carry a token, and every change is a POST (mail scanners follow GET links).
 */

const emailAddress = z
  .string({ error: "Enter your email address" })
  .trim()
  .max(EMAIL_LIMITS.addressLength, `An email address is at most ${EMAIL_LIMITS.addressLength} characters`)
  .pipe(z.email("Enter a valid email address"));

/** The links' tokens: base64url, fixed lengths (a confirmation token 43 characters, a link token 43). */
const linkToken = z
  .string({ error: "The link is incomplete" })
  .trim()
  .min(16, "The link is incomplete")
  .max(128, "The link is not valid")
  .regex(/^[A-Za-z0-9_-]+$/, "The link is not valid");

export const emailModeSchema = z.enum(EMAIL_MODES, { error: "Choose every item or the digest" });

/** GET /api/email/feeds/{feedId}: whether a reader can subscribe, and to what. */
export const emailFeedStatusSchema = z.object({
  feedId: z.string(),
  feedName: z.string(),
  availability: z.enum(["on", "feed-off", "smtp-off"]),
  modes: z.array(emailModeSchema),
});
export type EmailFeedStatus = z.infer<typeof emailFeedStatusSchema>;

export const emailFeedParamsSchema = z.object({ feedId: feedIdSchema });

/** POST /api/email/subscribe. */
export const emailSubscribeRequestSchema = z.object({
  feedId: feedIdSchema,
  email: emailAddress,
  mode: emailModeSchema.default("every"),
});
export type EmailSubscribeRequest = z.input<typeof emailSubscribeRequestSchema>;

/** The same answer whether the address was new, waiting or already subscribed: the form tells nobody who is. */
export const emailSubscribeResultSchema = z.object({ message: z.string() });

/** POST /api/email/confirm, /api/email/unsubscribe; GET /api/email/subscription. */
export const emailTokenRequestSchema = z.object({ token: linkToken });
export const emailTokenQuerySchema = z.object({ token: linkToken });

/** PUT /api/email/subscription. */
export const emailSubscriptionUpdateSchema = z.object({ token: linkToken, mode: emailModeSchema });

/** A subscription as its reader sees it through a link: never the address. */
export const emailSubscriptionSchema = z.object({
  feedId: z.string(),
  feedName: z.string(),
  mode: emailModeSchema,
  /** The modes the feed offers now. */
  modes: z.array(emailModeSchema),
  /** The token of the reader's manage link (answered once confirmed). */
  manageToken: z.string(),
});
export type EmailSubscription = z.infer<typeof emailSubscriptionSchema>;

export const emailUnsubscribedSchema = z.object({ feedId: z.string(), feedName: z.string() });
export type EmailUnsubscribed = z.infer<typeof emailUnsubscribedSchema>;

/** POST /api/email/events: a bounce or complaint the mail provider reports (HTTP Basic, EMAIL_WEBHOOK_SECRET). */
export const emailEventSchema = z.object({
  type: z.enum(["bounce", "complaint"]),
  email: emailAddress,
  /** A soft (temporary) bounce changes nothing; absent counts as permanent. */
  permanent: z.boolean().optional(),
});
export const emailEventResultSchema = z.object({ suppressed: z.boolean(), subscriptionsRemoved: z.number() });

/** GET /api/feeds/{feedId}/email: what the feed's owner sees of its subscribers. */
export const emailSubscriberSummarySchema = z.object({
  availability: z.enum(["on", "feed-off", "smtp-off"]),
  modes: z.array(emailModeSchema),
  confirmed: z.number(),
  pending: z.number(),
  byMode: z.object({ every: z.number(), digest: z.number() }),
  cap: z.number(),
  /** The last 30 days, oldest first: confirmations and unsubscriptions per day (UTC). */
  growth: z.array(z.object({ day: z.string(), confirmed: z.number(), unsubscribed: z.number() })),
  /** Mails queued and not yet handed to the relay. */
  queued: z.number(),
});
export type EmailSubscriberSummary = z.infer<typeof emailSubscriberSummarySchema>;

/** POST /api/feeds/{feedId}/email/test: the owner's "Send me a test". */
export const emailTestRequestSchema = z.object({ email: emailAddress });
export const emailTestResultSchema = z.object({ message: z.string() });

/**
 * GET /api/test/mails and /api/test/mails/{id}: the development catch-all's mails (servers in development or test
 * mode that only their own machine reaches, without SMTP_URL), newest first, so a developer can open a confirmation
 * link locally.
 */
export const caughtMailListQuerySchema = z.object({
  ...pageQuery,
});

export const caughtMailSummarySchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  sentAt: z.string(),
});
export type CaughtMailSummary = z.infer<typeof caughtMailSummarySchema>;
export const caughtMailPageSchema = pagedSchema(caughtMailSummarySchema);

/** The catch-all names its files after the time and a random part: nothing else is a mail's id. */
export const caughtMailParamsSchema = z.object({
  id: z.string().regex(/^[0-9A-Za-z-]{1,64}$/, "Not a caught mail's id"),
});

export const caughtMailSchema = caughtMailSummarySchema.extend({
  /** The headers the mail was sent with beyond From, To and Subject (List-Unsubscribe and friends). */
  headers: z.record(z.string(), z.string()),
  text: z.string(),
  html: z.string(),
});
export type CaughtMail = z.infer<typeof caughtMailSchema>;
