/**
 * How a dry run's rendered requests look in their channels: pure helpers that read the request each distributor
 * would send (Telegram's text with its parse mode, Discord's escaped markdown, Notion property values). An RSS item
 * is not read here: the server sends it as readers will list it (`shown`), made by the function that writes the feed.
 * Text is turned into runs, never into HTML, so a hostile post can only ever show as text.
 */

import { builtinPluginName, DISTRIBUTORS, isDistributorPluginName, type PreviewKind } from "@curate/core";

export type ChannelKind = PreviewKind;

/** How a distributor's request is previewed (its descriptor says); a plugin that is not a built-in shows JSON. */
export function channelKind(pluginName: string): ChannelKind {
  const name = builtinPluginName(pluginName);
  return isDistributorPluginName(name) ? DISTRIBUTORS[name].previewKind : "json";
}

/** A run of a message's visible text and how it is formatted. */
export interface TextRun {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  code?: boolean;
  href?: string;
}

const HTML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|lt|gt|amp|quot);/g, (_, name: string) =>
    name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : HTML_ENTITIES[name],
  );
}

/** Telegram's HTML parse mode (the tags the Bot API knows) as runs of visible text. */
function htmlRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  const style: Omit<TextRun, "text"> = {};
  const stack: string[] = [];
  const tagPattern = /<(\/?)([a-z-]+)([^>]*)>/gi;
  let last = 0;
  const push = (raw: string) => {
    if (raw) runs.push({ text: decodeEntities(raw), ...style });
  };
  for (const match of text.matchAll(tagPattern)) {
    push(text.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    const closing = match[1] === "/";
    const tag = match[2].toLowerCase();
    if (closing) stack.pop();
    else stack.push(tag);
    const has = (...tags: string[]) => stack.some((open) => tags.includes(open));
    style.bold = has("b", "strong") || undefined;
    style.italic = has("i", "em") || undefined;
    style.underline = has("u", "ins") || undefined;
    style.strike = has("s", "strike", "del") || undefined;
    style.code = has("code", "pre") || undefined;
    if (tag === "a") {
      const href = /href="([^"]*)"/i.exec(match[3])?.[1];
      style.href = !closing && href ? decodeEntities(href) : undefined;
    }
  }
  push(text.slice(last));
  return runs;
}

/** Telegram's MarkdownV2: `*bold*`, `_italic_`, backslash escapes. */
function markdownV2Runs(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let bold = false;
  let italic = false;
  let current = "";
  const flush = () => {
    if (current) runs.push({ text: current, ...(bold ? { bold } : {}), ...(italic ? { italic } : {}) });
    current = "";
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\\" && i + 1 < text.length) {
      current += text[++i];
    } else if (char === "*") {
      flush();
      bold = !bold;
    } else if (char === "_") {
      flush();
      italic = !italic;
    } else current += char;
  }
  flush();
  return runs;
}

/** A Telegram message's text as its reader sees it, by parse mode (none: the text as it is). */
export function telegramRuns(text: string, parseMode?: string): TextRun[] {
  if (parseMode === "HTML") return htmlRuns(text);
  if (parseMode === "MarkdownV2") return markdownV2Runs(text);
  return text ? [{ text }] : [];
}

/** Discord shows escaped markdown as the plain character. */
export const discordText = (text: string) => text.replace(/\\([\\*_~`|>#\-[\]()<])/g, "$1");

/** A Notion property value as one line of text (the property table of a page). */
export function notionValue(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  const [type, inner] = Object.entries(value as Record<string, unknown>)[0] ?? [];
  if (type === undefined) return "";
  if (type === "title" || type === "rich_text") {
    return (inner as Array<{ text?: { content?: string } }>).map((part) => part.text?.content ?? "").join("");
  }
  if (type === "date") return (inner as { start?: string }).start ?? "";
  if (type === "checkbox") return inner ? "Yes" : "No";
  if (type === "multi_select")
    return (inner as Array<{ name: string }>).map((option) => option.name).join(", ");
  if (type === "select") return (inner as { name?: string }).name ?? "";
  return String(inner ?? "");
}

/** A Notion property's type, for its label in the table. */
export function notionType(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  return (Object.keys(value as object)[0] ?? "").replace(/_/g, " ");
}
