import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";

type Node = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

/** A mention as a status's `mentions` array lists it: `acct` is `user` for the instance's own accounts. */
export interface StatusMention {
  url: string;
  acct: string;
}

/** Where the bot's instance is, to give its own accounts (whose `acct` has no host) their full handle. */
export interface TextContext {
  instanceHost: string;
  mentions: readonly StatusMention[];
}

/** Longest `content` read; beyond it a status is skipped rather than parsed (Mastodon itself allows 500 characters). */
export const MAX_CONTENT_HTML = 200_000;

const BLOCKS = new Set(["p", "div", "blockquote", "pre", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6"]);
// Remote servers (Pleroma, Misskey, Akkoma) may send these; they carry nothing the reader should see as text.
const HIDDEN = new Set(["script", "style", "template", "img", "video", "audio"]);
// Control characters other than tab and newline: PostgreSQL refuses NUL and none of them is text anyone wrote.
const CONTROLS = /(?![\t\n])\p{Cc}/gu;

/** `user@host`: the instance's host added to its own accounts, as `!submit @bot@host` and approver lists write them. */
export function fullAcct(acct: string, instanceHost: string): string {
  const bare = acct.replace(/^@+/, "");
  return bare.includes("@") ? bare : `${bare}@${instanceHost}`;
}

const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
const classes = (element: Element) => new Set((attr(element, "class") ?? "").split(/\s+/).filter(Boolean));

function textContent(node: Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterTypes.TextNode).value;
  if (!("childNodes" in node) || HIDDEN.has(node.nodeName)) return "";
  return node.childNodes.map(textContent).join("");
}

function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * A link as its author wrote it. Mastodon shows a shortened form (`<span class="invisible">` around the scheme and
 * the tail, `ellipsis` on what shows): the author wrote the full address, which is the href. A link labelled with
 * words (remote servers' Markdown) keeps the words and the address.
 */
function linkText(element: Element, context: TextContext): string {
  const href = attr(element, "href") ?? "";
  const shown = textContent(element).replace(/\s+/g, " ").trim();
  const kind = classes(element);
  if (kind.has("hashtag") || shown.startsWith("#")) return shown;
  if (kind.has("mention") || shown.startsWith("@")) {
    const listed = context.mentions.find((m) => m.url === href);
    if (listed) return `@${fullAcct(listed.acct, context.instanceHost)}`;
    // Not in `mentions` (a remote server's own markup): the handle shown, with the host of the profile it links to.
    const host = isWebUrl(href) ? new URL(href).host : context.instanceHost;
    return shown.startsWith("@") ? `@${fullAcct(shown.slice(1), host)}` : shown;
  }
  if (!isWebUrl(href)) return shown;
  const bare = (value: string) => value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/[/…]+$/, "");
  if (!shown || bare(href).startsWith(bare(shown))) return href;
  return `${shown} (${href})`;
}

/**
 * Text runs and breaks, then joined: blocks are paragraphs (a blank line between two), `<br>` a line break, runs of
 * spaces and source newlines one space as a browser shows them (but inside `<pre>`).
 */
function render(nodes: readonly Node[], context: TextContext, out: string[], preformatted: boolean) {
  for (const node of nodes) {
    if (node.nodeName === "#text") {
      const value = (node as DefaultTreeAdapterTypes.TextNode).value;
      const collapsed = value.replace(/[ \t\r\n\f]+/g, " ");
      // A space the source had after a break is no part of the next line.
      out.push(preformatted ? value : out.at(-1)?.endsWith("\n") ? collapsed.replace(/^ /, "") : collapsed);
      continue;
    }
    if (!("tagName" in node) || HIDDEN.has(node.tagName)) continue;
    const element = node as Element;
    const tag = element.tagName;
    if (tag === "br") {
      out.push("\n");
    } else if (tag === "a") {
      out.push(linkText(element, context));
    } else if (tag === "li") {
      out.push("\n");
      render(element.childNodes, context, out, preformatted);
    } else if (BLOCKS.has(tag)) {
      out.push("\n\n");
      render(element.childNodes, context, out, preformatted || tag === "pre");
      out.push("\n\n");
    } else {
      render(element.childNodes, context, out, preformatted);
    }
  }
}

/**
 * A status's HTML `content` as the text its author wrote: paragraphs blank-line separated, line breaks kept, links
 * in full, mentions as `@user@host`, hashtags as `#tag`, entities decoded, emoji shortcodes (`:blobcat:`) as typed,
 * no markup left.
 */
export function statusText(html: string, context: TextContext): string {
  const out: string[] = [];
  render(parseFragment(html).childNodes, context, out, false);
  return plainText(out.join(""));
}

/** Tidies text joined from runs: no control characters, no spaces at line ends, at most one blank line in a row. */
export function plainText(value: string): string {
  return value
    .replace(CONTROLS, "")
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
