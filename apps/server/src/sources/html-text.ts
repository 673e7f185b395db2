import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";
import { cleanText } from "./safe-text.ts";

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

/** An image the HTML shows, with its alt text. */
export interface HtmlImage {
  url: string;
  alt: string | null;
}

export interface HtmlText {
  text: string;
  images: HtmlImage[];
}

/** Elements whose content a reader never sees as text (code, embedded players, form controls). */
const HIDDEN = new Set([
  "script",
  "style",
  "template",
  "noscript",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "head",
  "title",
  "select",
  "button",
  "canvas",
  "audio",
  "video",
]);

/** Blocks that stand as paragraphs of their own. */
const PARAGRAPHS = new Set([
  "p",
  "blockquote",
  "pre",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "dl",
  "table",
  "figure",
  "hr",
  "address",
]);

/** Blocks that start a line of their own. */
const LINES = new Set([
  "div",
  "section",
  "article",
  "header",
  "footer",
  "aside",
  "main",
  "nav",
  "li",
  "tr",
  "dt",
  "dd",
  "figcaption",
  "details",
  "summary",
]);

/**
 * Every element name HTML knows, the obsolete ones included. A tag of another name (`Vec<T>`, `Option<String>`) is
 * text that happens to hold angle brackets, as its writer meant it, and is kept; a known name (`<b>`) is markup.
 */
const HTML_ELEMENTS = new Set(
  (
    "a abbr acronym address area article aside audio b base basefont bdi bdo bgsound big blink blockquote body br " +
    "button canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em " +
    "embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html " +
    "i iframe image img input ins isindex kbd keygen label legend li link listing main map mark marquee math menu " +
    "menuitem meta meter multicol nav nextid nobr noembed noframes noscript object ol optgroup option output p " +
    "param picture plaintext pre progress q rb rp rt rtc ruby s samp script search section select slot small " +
    "source spacer span strike strong style sub summary sup svg table tbody td template textarea tfoot th thead " +
    "time title tr track tt u ul var video wbr xmp"
  ).split(" "),
);

/** Whether an element is markup: an HTML element, or a custom element (whose name has a hyphen). */
const isMarkup = (tag: string) => HTML_ELEMENTS.has(tag) || tag.includes("-");

// Deeper markup than this is not something a writer produces; past it the text is dropped rather than risk the stack.
const MAX_DEPTH = 200;
/** Markup past this many characters is not read: a summary's text is far shorter. */
const MAX_HTML_CHARS = 500_000;
const MAX_IMAGES = 10;

const PARAGRAPH_BREAK = "\u0000P";
const LINE_BREAK = "\u0000L";

/** Text that shows a web address, whole or shortened for display ("example.com/a-long-pa…"). */
const SHOWS_ADDRESS = /^(?:https?:\/\/)?(?:www\.)?[\w-]+(?:\.[\w-]+)+(?:[/?#]\S*)?…?$/i;

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((attr) => attr.name === name)?.value ?? null;
}

function absoluteHttpUrl(raw: string | null, base: string | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * HTML (a feed item's summary, a status's content) as the plain text a reader of it sees: entities decoded,
 * markup and scripts gone (a tag HTML does not know is text, and stays), paragraphs as blank lines and `<br>` as
 * line breaks, lists as "- " lines, and a link whose text shows its address (often shortened for display) written as
 * its full address. The images it shows are returned beside it. `base` resolves relative addresses.
 */
export function htmlToText(html: string, base?: string): HtmlText {
  const images: HtmlImage[] = [];
  const out: string[] = [];

  const source = html.slice(0, MAX_HTML_CHARS);
  const walk = (node: Node, depth: number, preformatted: boolean) => {
    if (depth > MAX_DEPTH) return;
    if (node.nodeName === "#text") {
      const value = (node as DefaultTreeAdapterTypes.TextNode).value;
      out.push(preformatted ? value.replace(/\n/g, LINE_BREAK) : value.replace(/[\t\n\f\r ]+/g, " "));
      return;
    }
    if (!("tagName" in node)) {
      if ("childNodes" in node) for (const child of node.childNodes) walk(child, depth + 1, preformatted);
      return;
    }
    const element = node as Element;
    const tag = element.tagName;
    if (!isMarkup(tag)) {
      // Written as it stands in the source (its case, its spacing), with whatever it seemed to enclose.
      const at = element.sourceCodeLocation;
      if (at?.startTag) out.push(source.slice(at.startTag.startOffset, at.startTag.endOffset));
      for (const child of element.childNodes) walk(child, depth + 1, preformatted);
      if (at?.endTag) out.push(source.slice(at.endTag.startOffset, at.endTag.endOffset));
      return;
    }
    if (HIDDEN.has(tag)) return;
    if (tag === "br") {
      out.push(LINE_BREAK);
      return;
    }
    if (tag === "img") {
      const url = absoluteHttpUrl(attribute(element, "src"), base);
      if (url && images.length < MAX_IMAGES && !images.some((image) => image.url === url)) {
        images.push({ url, alt: attribute(element, "alt")?.trim() || null });
      }
      return;
    }
    const breakWith = PARAGRAPHS.has(tag) ? PARAGRAPH_BREAK : LINES.has(tag) ? LINE_BREAK : null;
    if (breakWith) out.push(breakWith);
    if (tag === "li") out.push(listMarker(element));
    if (tag === "a") {
      const start = out.length;
      for (const child of element.childNodes) walk(child, depth + 1, preformatted);
      const shown = out.slice(start).join("").trim();
      const href = absoluteHttpUrl(attribute(element, "href"), base);
      if (href && SHOWS_ADDRESS.test(shown)) out.splice(start, out.length - start, href);
    } else {
      for (const child of element.childNodes) walk(child, depth + 1, preformatted || tag === "pre");
    }
    if (breakWith) out.push(breakWith);
  };

  walk(parseFragment(source, { sourceCodeLocationInfo: true }), 0, false);
  return { text: layout(out.join("")), images };
}

function listMarker(item: Element): string {
  const list = item.parentNode && "tagName" in item.parentNode ? item.parentNode : null;
  if (list?.tagName !== "ol") return "- ";
  const items = list.childNodes.filter((child) => "tagName" in child && child.tagName === "li");
  const start = Number.parseInt(attribute(list, "start") ?? "1", 10);
  return `${(Number.isFinite(start) ? start : 1) + items.indexOf(item)}. `;
}

/**
 * Breaks become newlines: one for a line, a blank line between paragraphs, never more; spaces that markup left
 * side by side (around an image, between inline elements) become one, and none stay at a line's ends.
 */
function layout(marked: string): string {
  const paragraphs = marked
    .split(PARAGRAPH_BREAK)
    .map((paragraph) =>
      paragraph
        .split(LINE_BREAK)
        .map((line) => line.replace(/ {2,}/g, " ").trim())
        .join("\n")
        .replace(/\n{2,}/g, "\n")
        .trim(),
    )
    .filter(Boolean);
  return cleanText(paragraphs.join("\n\n"));
}

/** Text that may carry markup or entities (an RSS title) as plain text. */
export function plainText(htmlOrText: string, base?: string): string {
  return htmlToText(htmlOrText, base).text;
}
