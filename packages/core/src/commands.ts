/** The curation commands people post on social networks, and the hashtags that name feeds; free of zod. */
export type Command =
  | { kind: "submit"; feedIds: string[]; note: string | null }
  | { kind: "approve" | "reject"; feedIds: string[]; note: string | null }
  | { kind: "link"; code: string };

/** `!link <code>`: the code a signed-in user got to prove this handle is theirs (POST /api/users/me/link-codes). */
const LINK = /(?:^|\s)!link\s+(CUR-[A-Z2-9]{8})(?![\w-])/i;

const HASHTAG = /(^|[^\w&])#(\w{1,64})/gu;
/** A mention on any network: `@name` (X, Telegram), `@name.bsky.social` (Bluesky), `@name@host` (Mastodon). */
const MENTION = /(^|[^\w])@(\w(?:[\w.-]{0,252}\w)?(?:@\w(?:[\w.-]{0,252}\w)?)?)/gu;

export function hashtagsOf(text: string): string[] {
  const tags = [...text.matchAll(HASHTAG)].map((m) => m[2].toLowerCase());
  return [...new Set(tags)];
}

/** The curator's words: the text without the command, mentions, hashtags and links' leftovers of whitespace. */
function noteOf(text: string, command: RegExp): string | null {
  const note = text
    .replace(command, " ")
    .replace(MENTION, "$1")
    .replace(HASHTAG, "$1")
    .replace(/\s+/g, " ")
    .trim();
  return note.length > 0 ? note : null;
}

/**
 * Reads a post for a curation command (case-insensitive): `!submit @<bot> #feed… note`, or a moderator's
 * `!approve` / `!reject` with optional `#feed…` and note. Anything else is not a command.
 */
export function parseCommand(
  text: string,
  botHandle: string,
  { mentionOptional = false }: { mentionOptional?: boolean } = {},
): Command | null {
  const handle = botHandle.replace(/^@/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // Where every message reaching the bot is meant for it (a Telegram group), `!submit #feed` needs no mention.
  const submit = mentionOptional
    ? new RegExp(`(?:^|\\s)!submit(?:\\s+@${handle})?(?![\\w@-]|\\.\\w)`, "i")
    : new RegExp(`!submit\\s+@${handle}(?![\\w@-]|\\.\\w)`, "i");
  if (submit.test(text)) {
    return { kind: "submit", feedIds: hashtagsOf(text), note: noteOf(text, new RegExp(submit.source, "gi")) };
  }
  const link = LINK.exec(text);
  if (link) return { kind: "link", code: link[1].toUpperCase() };
  const moderation = /(^|\s)!(approve|reject)(?!\w)/i.exec(text);
  if (moderation) {
    const kind = moderation[2].toLowerCase() as "approve" | "reject";
    return { kind, feedIds: hashtagsOf(text), note: noteOf(text, /(^|\s)!(approve|reject)(?!\w)/gi) };
  }
  return null;
}
