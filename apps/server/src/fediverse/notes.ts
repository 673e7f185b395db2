/** HTML special characters escaped, for text placed in a note's or an actor's HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A note's longest text: Mastodon shows 500 characters of its own posts, and readers follow the link for more. */
export const NOTE_TEXT_MAX = 2000;

export interface NoteParts {
  text: string | null;
  link?: string | null;
  /** The curator's handle and profile address, credited under the text. */
  curator?: { handle: string; url: string | null } | null;
}

/**
 * A note's HTML (an ActivityPub note's content is HTML): the item's text in paragraphs, its link, and the curator
 * credited. Everything taken from the item is escaped, so a post's text cannot add markup to it.
 */
export function noteHtml(parts: NoteParts): string {
  const paragraphs: string[] = [];
  const text = (parts.text ?? "").trim().slice(0, NOTE_TEXT_MAX);
  for (const block of text.split(/\n{2,}/)) {
    if (block.trim()) paragraphs.push(`<p>${escapeHtml(block.trim()).replace(/\n/g, "<br>")}</p>`);
  }
  if (parts.link) {
    const href = escapeHtml(parts.link);
    paragraphs.push(
      `<p><a href="${href}" rel="nofollow noopener noreferrer" target="_blank">${href}</a></p>`,
    );
  }
  if (parts.curator) {
    const handle = escapeHtml(parts.curator.handle);
    paragraphs.push(
      parts.curator.url
        ? `<p>Curated by <a href="${escapeHtml(parts.curator.url)}" rel="nofollow noopener noreferrer">@${handle}</a></p>`
        : `<p>Curated by @${handle}</p>`,
    );
  }
  return paragraphs.join("");
}
