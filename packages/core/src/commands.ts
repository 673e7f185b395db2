/** The curation commands people post on social networks, and the hashtags that name feeds; free of zod. */
import { WEB_ADDRESS } from "./post-addresses.ts";

export type Command =
  | { kind: "submit"; feedIds: string[]; note: string | null }
  | { kind: "approve" | "reject"; feedIds: string[]; note: string | null }
  | { kind: "link"; code: string };

/** `!link <code>`: the code a signed-in user got to prove this handle is theirs (POST /api/users/me/link-codes). */
const LINK_CODE = /^\s+(CUR-[A-Z2-9]{8})(?![\w-])/i;

const HASHTAG = /(^|[^\w&])#(\w{1,64})/gu;
/** A handle on any network: `name` (X, Telegram), `name.bsky.social` (Bluesky), `name@host` (Mastodon). */
const HANDLE = String.raw`\w(?:[\w.-]{0,252}\w)?(?:@\w(?:[\w.-]{0,252}\w)?)?`;
const MENTION = new RegExp(String.raw`(^|[^\w])@(${HANDLE})`, "gu");
/**
 * One mention before the command, as replies start (X writes the thread's people there): whitespace after it, or
 * the comma or colon people put there ("@bot: !submit").
 */
const LEADING_MENTION = new RegExp(String.raw`^@(${HANDLE})[,:]?(?:\s+|$)`, "u");
/** The mention right after `!submit`: `!submit @bot`. */
const NEXT_MENTION = new RegExp(String.raw`^\s+@(${HANDLE})(?![\w@-]|\.\w)`, "u");
/** The command itself, right where the text (after its leading mentions) begins. */
const COMMAND = /^!(submit|approve|reject|link)(?![\w@-])/i;

/** The text with `edit` applied outside its web addresses, which stay as they were written. */
function outsideAddresses(text: string, edit: (part: string) => string): string {
  let result = "";
  let from = 0;
  for (const address of text.matchAll(WEB_ADDRESS)) {
    result += edit(text.slice(from, address.index)) + address[0];
    from = address.index + address[0].length;
  }
  return result + edit(text.slice(from));
}

export function hashtagsOf(text: string): string[] {
  const tags = [...text.replace(WEB_ADDRESS, " ").matchAll(HASHTAG)].map((m) => m[2].toLowerCase());
  return [...new Set(tags)];
}

/** The curator's words after the command: without mentions and hashtags, addresses whole, whitespace folded. */
function noteOf(rest: string): string | null {
  const note = outsideAddresses(rest, (part) => part.replace(MENTION, "$1").replace(HASHTAG, "$1"))
    .replace(/\s+/g, " ")
    .trim();
  return note.length > 0 ? note : null;
}

/** The mentions a text starts with (lower-cased), and the text after them. */
function leadingMentions(text: string): { mentions: string[]; rest: string } {
  const mentions: string[] = [];
  let rest = text.trimStart();
  for (let mention = LEADING_MENTION.exec(rest); mention; mention = LEADING_MENTION.exec(rest)) {
    mentions.push(mention[1].toLowerCase());
    rest = rest.slice(mention[0].length);
  }
  return { mentions, rest };
}

/**
 * Reads a post for a curation command (case-insensitive). The command comes first, after any mentions the post
 * starts with: `!submit @<bot> #feed… note` and `@<bot> !submit #feed… note` (with others mentioned before, as
 * replies start on X), a moderator's `!approve` / `!reject` with optional `#feed…` and note, `!link <code>`.
 * A command quoted further into a text is not one: "reply `!submit @bot #ai` to curate" asks nothing of the bot.
 */
export function parseCommand(
  text: string,
  botHandle: string,
  { mentionOptional = false }: { mentionOptional?: boolean } = {},
): Command | null {
  const bot = botHandle.replace(/^@/, "").toLowerCase();
  const { mentions, rest } = leadingMentions(text);
  const command = COMMAND.exec(rest);
  if (!command) return null;
  const kind = command[1].toLowerCase() as "submit" | "approve" | "reject" | "link";
  let after = rest.slice(command[0].length);
  if (kind === "link") {
    const code = LINK_CODE.exec(after);
    return code ? { kind: "link", code: code[1].toUpperCase() } : null;
  }
  if (kind === "submit") {
    const next = NEXT_MENTION.exec(after);
    const namedNext = next !== null && next[1].toLowerCase() === bot;
    if (namedNext) after = after.slice(next[0].length);
    // Where every message reaching the bot is meant for it (a Telegram group), `!submit #feed` needs no mention.
    if (!namedNext && !mentionOptional && !mentions.includes(bot)) return null;
  }
  return { kind, feedIds: hashtagsOf(after), note: noteOf(after) };
}
