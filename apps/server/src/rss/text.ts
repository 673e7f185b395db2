import { cleanText } from "../sources/safe-text.ts";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text as HTML that shows it as written: markup in a post is data, never formatting or script. */
export function textAsHtml(value: string): string {
  return cleanText(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** A body as paragraphs (blank lines) and line breaks, every character of it escaped. */
export function bodyAsHtml(value: string): string {
  return value
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${textAsHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
