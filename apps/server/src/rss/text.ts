import { escapeHtml } from "@curate/core";
import { cleanText } from "../sources/safe-text.ts";

/** Text as HTML that shows it as written: markup in a post is data, never formatting or script. */
export function textAsHtml(value: string): string {
  return escapeHtml(cleanText(value));
}

/** A body as paragraphs (blank lines) and line breaks, every character of it escaped. */
export function bodyAsHtml(value: string): string {
  return value
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${textAsHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
