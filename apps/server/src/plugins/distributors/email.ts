import { EMAIL_TEXTS, type EmailDistributorConfig, emailDistributorConfigSchema } from "@curate/core";
import { and, count, eq } from "drizzle-orm";
import type { MailSetting } from "../../config/env.ts";
import type { Database } from "../../db/index.ts";
import { emailSubscribers, feeds } from "../../db/schema.ts";
import { cancelIssue, queueIssue } from "../../email/delivery.ts";
import { feedPageUrl } from "../../email/service.ts";
import { type MailEntry, renderIssueMail } from "../../email/template.ts";
import { type DistributorPlugin, PluginError } from "../types.ts";
import { cutText, postFrom } from "./content.ts";

export interface EmailSettings {
  db: Database;
  publicUrl: string;
  mail: MailSetting;
}

/** What the email distributor renders: the mail as every reader gets it but for their own links, and to how many. */
export interface EmailRequest {
  audience: "every" | "digest";
  subject: string;
  html: string;
  text: string;
  /** Confirmed subscribers of the audience when rendered (a preview's "would be sent to"). */
  recipients: number;
}

const SUBJECT_MAX = 200;
/** A digest lists at most this many items in full; a recap holds at most 200. */
const DIGEST_MAX = 200;

function entryOf(input: unknown): MailEntry {
  const post = postFrom(input);
  return {
    title: post.title,
    body: post.text ?? post.body,
    link: post.link,
    author: post.author,
    image: post.image,
  };
}

/**
 * The feed's email newsletter (issue 34, decision 0034). A stream step mails each approved item to the readers who
 * chose every item; a recap step mails the digest to those who chose it. `send` queues the issue (one delivery per
 * reader, sent by the workers' delivery passes at the relay's pace); a retraction cancels what has not gone out
 * and is otherwise recorded only, since a sent mail cannot be taken back.
 */
export function createEmailDistributor(settings: EmailSettings): DistributorPlugin<EmailDistributorConfig> {
  const { db } = settings;
  return {
    type: "distributor",
    name: "email",
    configSchema: emailDistributorConfigSchema,
    async render(input, config, context) {
      const [feed] = await db.select({ name: feeds.name }).from(feeds).where(eq(feeds.id, context.feedId));
      const feedName = feed?.name ?? context.feedId;
      const digest = context.submissionId === null;
      const audience = digest ? "digest" : "every";
      const fields = (input ?? {}) as { items?: unknown; recapName?: unknown };
      const entries =
        digest && Array.isArray(fields.items)
          ? fields.items.slice(0, DIGEST_MAX).map(entryOf)
          : [entryOf(input)];
      if (!entries.some((entry) => entry.title || entry.body || entry.link)) {
        throw new PluginError(
          "The email has nothing to say: map a title, text, description or link in the feed's transforms.",
          { code: "EMAIL_EMPTY" },
        );
      }
      const heading = digest ? (typeof fields.recapName === "string" ? fields.recapName : "Digest") : null;
      const subject = cutText(
        config.subject ?? (digest ? `${feedName}: ${heading}` : (entries[0].title ?? `New in ${feedName}`)),
        SUBJECT_MAX,
      );
      const mail = await renderIssueMail({
        subject,
        feedName,
        feedUrl: feedPageUrl({ PUBLIC_URL: settings.publicUrl }, context.feedId),
        intro: config.intro ?? null,
        heading,
        entries,
      });
      const [{ recipients }] = await db
        .select({ recipients: count() })
        .from(emailSubscribers)
        .where(
          and(
            eq(emailSubscribers.feedId, context.feedId),
            eq(emailSubscribers.status, "confirmed"),
            eq(emailSubscribers.mode, audience),
          ),
        );
      const request: EmailRequest = { audience, ...mail, recipients };
      return { action: "queueIssue", request };
    },
    async send(rendered, _config, context) {
      if (settings.mail.kind === "off") {
        throw new PluginError(EMAIL_TEXTS.smtpOff, { code: "EMAIL_OFF" });
      }
      const request = rendered.request as EmailRequest;
      const queued = await queueIssue(db, {
        id: crypto.randomUUID(),
        feedId: context.feedId,
        jobId: context.jobId,
        idempotencyKey: context.idempotencyKey ?? `email:${context.jobId}`,
        audience: request.audience,
        subject: request.subject,
        html: request.html,
        text: request.text,
      });
      return {
        issueId: queued.issueId,
        audience: request.audience,
        recipients: queued.recipients,
        reference: { kind: "email-issue", id: queued.issueId },
      };
    },
    async retract(receipt) {
      const issueId = typeof receipt.issueId === "string" ? receipt.issueId : receipt.reference?.id;
      if (!issueId) return { retracted: false, reason: EMAIL_TEXTS.retractionRecordedOnly };
      const { cancelled, sent } = await cancelIssue(db, issueId);
      return {
        retracted: false,
        reason: `${EMAIL_TEXTS.retractionRecordedOnly} ${sent} sent; ${cancelled} not sent yet, cancelled.`,
      };
    },
  };
}
