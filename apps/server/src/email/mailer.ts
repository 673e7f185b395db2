import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { MailSetting } from "../config/env.ts";

/** One mail to one reader. The headers carry List-Unsubscribe and friends. */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
}

interface MailRefusal {
  responseCode: number | null;
  permanent: boolean;
  rejectedRecipient: boolean;
  notSent: boolean;
  unreachable: boolean;
}

/**
 * The relay's "no" to a mail, said without the address (relays quote it back): `permanent` for a 5xx reply, which
 * no retry changes; `rejectedRecipient` when it came at RCPT TO (the address itself is refused); `notSent` when the
 * relay surely did not take the mail (it answered with a code, or the connection failed before the message went
 * out), so sending it again cannot make a second copy; `unreachable` when no connection was made at all.
 */
export class MailRefusedError extends Error {
  readonly details: MailRefusal;
  override name = "MailRefusedError";
  constructor(message: string, details: MailRefusal) {
    super(message);
    this.details = details;
  }
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Ends the relay's connections (a pooled mailer keeps them open between mails). */
  close(): void;
}

/** What the relay said, with any address in it blanked: errors are stored and logged, addresses never. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'()[\],;:]+@[^\s<>"'()[\],;:]+/g, "<address>").slice(0, 300);
}

/** SMTP commands sent before the message itself: a failure there means nothing was handed over. */
const BEFORE_MESSAGE = /^(CONN|EHLO|HELO|LHLO|STARTTLS|AUTH|MAIL|RCPT)/i;

function refusal(error: unknown): MailRefusedError {
  const failure = error as { responseCode?: number; command?: string; code?: string; message?: string };
  const code = typeof failure.responseCode === "number" ? failure.responseCode : null;
  const command = failure.command ?? "";
  const unreachable = /^CONN/i.test(command) || ["ECONNECTION", "EDNS", "ETLS"].includes(failure.code ?? "");
  return new MailRefusedError(
    withoutAddresses(`${code ?? failure.code ?? "error"}: ${failure.message ?? String(error)}`),
    {
      responseCode: code,
      permanent: code !== null && code >= 500 && code < 600,
      rejectedRecipient: /^RCPT/i.test(command) || failure.code === "EENVELOPE",
      notSent: code !== null || unreachable || BEFORE_MESSAGE.test(command),
      unreachable,
    },
  );
}

/**
 * The mailer for this deployment's setting: the relay at SMTP_URL (nodemailer; `pooled` keeps a few connections
 * open for a delivery pass), or the development catch-all, which writes each mail as JSON into its folder for
 * /api/test/mails to list. Null when email is off.
 */
export function createMailer(
  setting: MailSetting,
  from: string,
  options: { pooled?: boolean } = {},
): Mailer | null {
  if (setting.kind === "off") return null;
  if (setting.kind === "catch-all") return catchAllMailer(setting.dir, from);
  const transport = nodemailer.createTransport({
    host: setting.host,
    port: setting.port,
    secure: setting.secure,
    ...(setting.auth ? { auth: setting.auth } : {}),
    ...(options.pooled ? { pool: true, maxConnections: 3, maxMessages: 1000 } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from, ...mail });
      } catch (error) {
        throw refusal(error);
      }
    },
    close: () => transport.close(),
  };
}

function catchAllMailer(dir: string, from: string): Mailer {
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const sentAt = new Date().toISOString();
      const id = `${sentAt.replaceAll(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
      // Written aside and renamed into place: a reader listing the folder (the page polls it) never parses half a mail.
      const file = join(dir, `${id}.json`);
      await writeFile(`${file}.partial`, JSON.stringify({ id, from, sentAt, ...mail }), { mode: 0o600 });
      await rename(`${file}.partial`, file);
    },
    close: () => undefined,
  };
}
