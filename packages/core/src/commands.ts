/** The curation commands people post on social networks, and the hashtags that name feeds; free of zod. */
export type Command =
  | { kind: "submit"; feedIds: string[]; note: string | null }
  | { kind: "approve" | "reject"; feedIds: string[]; note: string | null };

const HASHTAG = /(^|[^\w&])#(\w{1,64})/gu;
const MENTION = /(^|[^\w])@(\w{1,15})/gu;

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
export function parseCommand(text: string, botHandle: string): Command | null {
  const handle = botHandle.replace(/^@/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const submit = new RegExp(`!submit\\s+@${handle}(?!\\w)`, "i");
  if (submit.test(text)) {
    return { kind: "submit", feedIds: hashtagsOf(text), note: noteOf(text, new RegExp(submit.source, "gi")) };
  }
  const moderation = /(^|\s)!(approve|reject)(?!\w)/i.exec(text);
  if (moderation) {
    const kind = moderation[2].toLowerCase() as "approve" | "reject";
    return { kind, feedIds: hashtagsOf(text), note: noteOf(text, /(^|\s)!(approve|reject)(?!\w)/gi) };
  }
  return null;
}
