/**
 * Email newsletters (issue 34): the pure rules both apps share. Free of zod, so the feed page can ask them cheaply.
 */

import { findBuiltinPlugin } from "./plugins.ts";

/** What a subscriber receives: every item the feed publishes, or the feed's recaps (digests). */
export const EMAIL_MODES = ["every", "digest"] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

export const EMAIL_MODE_LABELS: Record<EmailMode, string> = {
  every: "Every item",
  digest: "Digest (the feed's recaps)",
};

export const EMAIL_LIMITS = {
  /** RFC 5321's longest forward path, less its angle brackets. */
  addressLength: 254,
  /** A confirmation link works this long, once. */
  confirmHours: 48,
  subjectLength: 200,
  introLength: 2000,
} as const;

/** Why a feed's page shows no subscription form: the owner has not turned email on, or this server cannot send. */
export type EmailAvailability = "on" | "feed-off" | "smtp-off";

export const EMAIL_TEXTS = {
  /** What the form says under its button: subscribers must know who sees their address. */
  ownerSees: "The feed's owner can see the addresses of its subscribers.",
  checkInbox:
    "Check your inbox: we sent a link to confirm your subscription. It works once, for 48 hours. Nothing is sent until you confirm.",
  smtpOff: "Email is off on this server: its operator has not set up sending mail (SMTP_URL).",
  feedOff: "This feed does not send email.",
  retractionRecordedOnly:
    "A sent email cannot be taken back: retracting records the retraction and cancels mails not sent yet.",
} as const;

interface StepLike {
  plugin?: unknown;
}

const isEmailStep = (step: unknown) =>
  typeof (step as StepLike | null)?.plugin === "string" &&
  findBuiltinPlugin((step as { plugin: string }).plugin)?.name === "email";

/**
 * The modes a feed offers, read from its config: `every` when its stream distributes through `@curate/email`,
 * `digest` when one of its enabled recaps does. Empty: the owner has not turned email on.
 */
export function emailModesOf(config: unknown): EmailMode[] {
  const outputs = (config as { outputs?: { stream?: unknown; recap?: unknown } } | null)?.outputs;
  const stream = outputs?.stream as { enabled?: boolean; distribute?: unknown } | undefined;
  const modes: EmailMode[] = [];
  if (
    stream &&
    stream.enabled !== false &&
    Array.isArray(stream.distribute) &&
    stream.distribute.some(isEmailStep)
  ) {
    modes.push("every");
  }
  // A recap is one object or a list of them (recap-rules' recapList, not imported: it brings the cron libraries).
  const recapValue = outputs?.recap;
  const recaps = (Array.isArray(recapValue) ? recapValue : recapValue ? [recapValue] : []) as Array<{
    enabled?: boolean;
    distribute?: unknown;
  } | null>;
  if (
    recaps.some(
      (recap) =>
        !!recap &&
        recap.enabled !== false &&
        Array.isArray(recap.distribute) &&
        recap.distribute.some(isEmailStep),
    )
  ) {
    modes.push("digest");
  }
  return modes;
}
