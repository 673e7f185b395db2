import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  render,
  Section,
  Text,
  toPlainText,
} from "@react-email/components";
import { createElement as h, type ReactNode } from "react";

/**
 * The mails (decision 0034), each one react-email template rendered twice: HTML (table layout and inline styles,
 * which common clients render, plus a dark-mode style block for the clients that honour it) and its plain-text part.
 * Text from posts goes in as React children, so it is escaped like any React text. The reader's own links are
 * markers here, filled per recipient (`personalize`) so one rendering serves a whole list.
 */

export const UNSUBSCRIBE_MARK = "%%UNSUBSCRIBE_URL%%";
export const MANAGE_MARK = "%%MANAGE_URL%%";

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** One entry of a mail: an item, or one of a digest's items. */
export interface MailEntry {
  title: string | null;
  body: string | null;
  link: string | null;
  author: string | null;
  image: string | null;
}

const colors = {
  text: "#18181b",
  muted: "#52525b",
  line: "#e4e4e7",
  page: "#f4f4f5",
  card: "#ffffff",
  accent: "#4338ca",
};

const DARK_MODE = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  .page, .page > table > tbody > tr > td { background-color: #09090b !important; }
  .card { background-color: #18181b !important; border-color: #3f3f46 !important; }
  .text { color: #f4f4f5 !important; }
  .muted { color: #a1a1aa !important; }
  .link { color: #a5b4fc !important; }
  .button { background-color: #a5b4fc !important; color: #09090b !important; }
  .rule { border-color: #3f3f46 !important; }
}`;

function frame(options: { preview: string; children: ReactNode; footer?: ReactNode }) {
  return h(
    Html,
    { lang: "en" },
    h(
      Head,
      null,
      h("meta", { name: "color-scheme", content: "light dark" }),
      h("meta", { name: "supported-color-schemes", content: "light dark" }),
      h("style", null, DARK_MODE),
    ),
    h(Preview, null, options.preview),
    h(
      Body,
      {
        className: "page",
        style: {
          backgroundColor: colors.page,
          margin: 0,
          padding: "24px 0",
          fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
        },
      },
      h(
        Container,
        {
          className: "card",
          style: {
            backgroundColor: colors.card,
            border: `1px solid ${colors.line}`,
            borderRadius: 8,
            maxWidth: 600,
            padding: "24px 28px",
          },
        },
        options.children,
        options.footer,
      ),
    ),
  );
}

const textStyle = { color: colors.text, fontSize: 16, lineHeight: "24px", margin: "0 0 12px" };
const mutedStyle = { color: colors.muted, fontSize: 13, lineHeight: "20px", margin: "0 0 8px" };
const linkStyle = { color: colors.accent, textDecoration: "underline" };

function paragraphs(text: string) {
  return text
    .split(/\n{2,}/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index) => h(Text, { key: index, className: "text", style: textStyle }, part));
}

function entry(item: MailEntry, index: number, many: boolean) {
  return h(
    Section,
    { key: index, style: { margin: many ? "0 0 20px" : "0 0 8px" } },
    item.image
      ? h(Img, {
          src: item.image,
          alt: "",
          width: "100%",
          style: { borderRadius: 6, margin: "0 0 12px", maxWidth: "100%" },
        })
      : null,
    item.title
      ? h(
          Heading,
          {
            as: many ? "h2" : "h1",
            className: "text",
            style: { ...textStyle, fontSize: many ? 18 : 22, lineHeight: "28px", fontWeight: 700 },
          },
          item.link
            ? h(
                Link,
                { href: item.link, className: "link", style: { ...linkStyle, textDecoration: "none" } },
                item.title,
              )
            : item.title,
        )
      : null,
    item.author ? h(Text, { className: "muted", style: mutedStyle }, `By ${item.author}`) : null,
    ...(item.body ? paragraphs(item.body) : []),
    item.link
      ? h(
          Text,
          { style: { ...textStyle, fontSize: 14 } },
          h(Link, { href: item.link, className: "link", style: linkStyle }, "Read more"),
        )
      : null,
  );
}

/** Why the reader gets this mail, and the two links that need no sign-in. */
function readerFooter(feedName: string, feedUrl: string) {
  return h(
    Section,
    null,
    h(Hr, { className: "rule", style: { borderColor: colors.line, margin: "20px 0 12px" } }),
    h(
      Text,
      { className: "muted", style: mutedStyle },
      "You receive this because you subscribed to ",
      h(Link, { href: feedUrl, className: "link", style: linkStyle }, feedName),
      " on Curate.",
    ),
    h(
      Text,
      { className: "muted", style: mutedStyle },
      h(Link, { href: UNSUBSCRIBE_MARK, className: "link", style: linkStyle }, "Unsubscribe"),
      " · ",
      h(Link, { href: MANAGE_MARK, className: "link", style: linkStyle }, "Manage your subscription"),
    ),
  );
}

async function both(element: ReturnType<typeof h>): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}

/** An issue: one item, or a digest of several, with the reader's links as markers. */
export async function renderIssueMail(options: {
  subject: string;
  feedName: string;
  feedUrl: string;
  intro: string | null;
  heading: string | null;
  entries: MailEntry[];
}): Promise<RenderedMail> {
  const many = options.entries.length > 1 || options.heading !== null;
  const preview = options.entries[0]?.title ?? options.entries[0]?.body?.slice(0, 120) ?? options.subject;
  const element = frame({
    preview,
    children: [
      h(
        Text,
        {
          key: "feed",
          className: "muted",
          style: { ...mutedStyle, textTransform: "uppercase", letterSpacing: "0.04em" },
        },
        options.feedName,
      ),
      options.heading
        ? h(
            Heading,
            {
              key: "heading",
              as: "h1",
              className: "text",
              style: { ...textStyle, fontSize: 24, lineHeight: "32px", fontWeight: 700 },
            },
            options.heading,
          )
        : null,
      options.intro ? h(Section, { key: "intro" }, ...paragraphs(options.intro)) : null,
      ...options.entries.map((item, index) => entry(item, index, many)),
    ],
    footer: readerFooter(options.feedName, options.feedUrl),
  });
  return { subject: options.subject, ...(await both(element)) };
}

/** The double opt-in mail: one button to the confirmation page (which confirms on a POST, not on opening). */
export async function renderConfirmMail(options: {
  feedName: string;
  feedUrl: string;
  confirmUrl: string;
  modeLabel: string;
  hours: number;
}): Promise<RenderedMail> {
  const subject = `Confirm your subscription to ${options.feedName}`;
  const element = frame({
    preview: `One click to start receiving ${options.feedName} by email.`,
    children: [
      h(
        Heading,
        {
          key: "h",
          as: "h1",
          className: "text",
          style: { ...textStyle, fontSize: 22, lineHeight: "28px", fontWeight: 700 },
        },
        subject,
      ),
      h(
        Text,
        { key: "t", className: "text", style: textStyle },
        "Someone, hopefully you, asked to receive ",
        h(Link, { href: options.feedUrl, className: "link", style: linkStyle }, options.feedName),
        ` by email (${options.modeLabel.toLowerCase()}). Nothing is sent until you confirm.`,
      ),
      h(
        Section,
        { key: "b", style: { margin: "20px 0" } },
        h(
          Button,
          {
            href: options.confirmUrl,
            className: "button",
            style: {
              backgroundColor: colors.accent,
              borderRadius: 6,
              color: "#ffffff",
              fontSize: 16,
              fontWeight: 600,
              padding: "12px 20px",
            },
          },
          "Confirm subscription",
        ),
      ),
      h(
        Text,
        { key: "e", className: "muted", style: mutedStyle },
        `The link works once, for ${options.hours} hours. If you did not ask, ignore this mail: you will not hear from us again.`,
      ),
    ],
  });
  return { subject, ...(await both(element)) };
}

/** The reader's own links in a rendered mail: the markers replaced (they sit in attributes and text alike). */
export function personalize(content: string, links: { unsubscribe: string; manage: string }): string {
  return content.replaceAll(UNSUBSCRIBE_MARK, links.unsubscribe).replaceAll(MANAGE_MARK, links.manage);
}
