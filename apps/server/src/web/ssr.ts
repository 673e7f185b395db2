import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { escapeHtml } from "@curate/core";
import type { Logger } from "pino";

/**
 * Server-rendered first paint (docs/decisions, "server-rendered first paint"): public pages are rendered by the web
 * app's server entry (`apps/web/src/entry-server.tsx`, built to `apps/web/dist-server/`) and sent as HTML with their
 * data embedded; anything else, and any page whose data is slow or failing, gets the plain app shell.
 */

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface PageHead {
  title: string;
  description: string;
  image: string | null;
}

/** What the web entry's `renderPage` answers (kept in step with apps/web/src/entry-server.tsx). */
export type RenderResult =
  | { kind: "page"; html: string; state: unknown; head: PageHead }
  | { kind: "redirect"; location: string }
  | { kind: "shell"; reason: string }
  | { kind: "not-found"; head: PageHead };

export interface PageRenderer {
  renderPage(url: string, options: { fetch: Fetch; deadline: number }): Promise<RenderResult>;
  /** The id of the JSON block the page's state goes in (the browser looks for it there). */
  stateId: string;
}

/** The web app's server entry, or null when it is not built (the app shell is served then). */
export async function loadPageRenderer(entry: string, logger: Logger): Promise<PageRenderer | null> {
  if (!existsSync(entry)) {
    logger.warn(
      { entry },
      "server rendering is off: the web app's server entry is not built (`npm run build`)",
    );
    return null;
  }
  const module = (await import(pathToFileURL(entry).href)) as {
    renderPage?: PageRenderer["renderPage"];
    SSR_STATE_ID?: string;
  };
  if (typeof module.renderPage !== "function" || typeof module.SSR_STATE_ID !== "string") {
    throw new Error(`${entry} does not export renderPage and SSR_STATE_ID`);
  }
  return { renderPage: module.renderPage, stateId: module.SSR_STATE_ID };
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` as JSON escapes, so no value (a feed named
 * `</script><script>…`) can end the block; the browser reads it back with JSON.parse unchanged.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const MAX_TITLE = 120;
const MAX_DESCRIPTION = 300;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** An image a link preview can fetch: absolute http(s), root-relative paths made absolute at PUBLIC_URL. */
function absoluteImage(image: string | null, publicUrl: string): string | null {
  if (!image) return null;
  try {
    const url = new URL(image, publicUrl);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The page's title, description, canonical address and link-preview (Open Graph, Twitter) tags. */
export function headTags(head: PageHead, pageUrl: string, publicUrl: string): string {
  const title = escapeHtml(clip(head.title, MAX_TITLE));
  const description = escapeHtml(clip(head.description, MAX_DESCRIPTION));
  const url = escapeHtml(new URL(pageUrl, publicUrl).href);
  const image = absoluteImage(head.image, publicUrl);
  const tags = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Curate" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta name="twitter:card" content="${image ? "summary_large_image" : "summary"}" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
  ];
  if (image) {
    tags.push(`<meta property="og:image" content="${escapeHtml(image)}" />`);
    tags.push(`<meta name="twitter:image" content="${escapeHtml(image)}" />`);
  }
  return tags.join("\n    ");
}

/**
 * The app shell for an address with nothing behind it (a feed that does not exist), answered as a 404: its own
 * title and description, kept out of search indexes. The browser renders the app, which says so at once.
 */
export function notFoundDocument(template: string, head: PageHead): string {
  const tags = [
    `<title>${escapeHtml(clip(head.title, MAX_TITLE))}</title>`,
    `<meta name="description" content="${escapeHtml(clip(head.description, MAX_DESCRIPTION))}" />`,
    `<meta name="robots" content="noindex" />`,
  ];
  return template
    .replace(/<title>[^<]*<\/title>/, "")
    .replace(/<meta name="description"[^>]*>/, "")
    .replace("</head>", `  ${tags.join("\n    ")}\n  </head>`);
}

/** The built stylesheets, read once per file name (hashed names never change their bytes). */
const stylesheets = new Map<string, string | null>();

async function stylesheet(distDir: string, href: string): Promise<string | null> {
  if (!/^\/assets\/[\w.-]+\.css$/.test(href)) return null;
  if (!stylesheets.has(href)) {
    const css = await readFile(join(distDir, href)).then(
      (bytes) => bytes.toString("utf8"),
      () => null,
    );
    // A stylesheet that could close the style element stays a link.
    stylesheets.set(href, css && !/<\/style/i.test(css) ? css : null);
  }
  return stylesheets.get(href) ?? null;
}

const MODULE_SCRIPT = /<script type="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>\s*/g;
const ASSET_SCRIPT = /^\/assets\/[\w.-]+\.js$/;

/**
 * The page is on screen without its code, so the code waits for it: the app's scripts (and their preloads) leave
 * the head and a small loader adds them once the first frame with the page's fonts is painted (at most half a
 * second after the fonts were asked for): two frames later, so the painted frame is on screen. On a slow connection
 * the first paint then has the line to itself.
 */
function deferScripts(template: string): { html: string; loader: string } | null {
  const scripts = [...template.matchAll(MODULE_SCRIPT)].map((m) => m[1]);
  const preloads = [...template.matchAll(MODULE_PRELOAD)].map((m) => m[1]);
  if (scripts.length === 0 || ![...scripts, ...preloads].every((src) => ASSET_SCRIPT.test(src))) return null;
  const html = template.replace(MODULE_SCRIPT, "").replace(MODULE_PRELOAD, "");
  const loader = `<script>(function(){var s=${JSON.stringify(scripts)},p=${JSON.stringify(preloads)};function add(tag,rel,url){var e=document.createElement(tag);if(tag==="link"){e.rel=rel;e.href=url}else{e.type="module";e.src=url}e.crossOrigin="";document.head.appendChild(e)}function go(){p.forEach(function(u){add("link","modulepreload",u)});s.forEach(function(u){add("script","",u)})}var fonts=document.fonts?document.fonts.ready:Promise.resolve();Promise.race([fonts,new Promise(function(r){setTimeout(r,500)})]).then(function(){requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})})})})();</script>`;
  return { html, loader };
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g;

/**
 * The browser paints nothing of a rendered page until the element after #root (the page's state) is parsed: without
 * this, a busy machine or a slow connection paints a page cut off mid-parse, and what was painted moves when the
 * rest arrives (the search box's icon, centred in a box whose input came in the next chunk, dropped 20 px). Chromium
 * stops blocking when the element named is inserted, so it names the one after the page, not #root. Browsers
 * without `rel="expect"` ignore it.
 */
const renderWholePage = (stateId: string) => `<link rel="expect" href="#${stateId}" blocking="render" />`;

/**
 * index.html around a rendered page: its head tags in place of the shell's title and description, the stylesheet
 * inline (no render-blocking request before the first paint), the scripts loaded after the first paint, the HTML
 * in #root and its state in a JSON block.
 */
export async function pageDocument(
  template: string,
  page: Extract<RenderResult, { kind: "page" }>,
  options: { distDir: string; pageUrl: string; publicUrl: string; stateId: string },
): Promise<string | null> {
  if (!template.includes('<div id="root"></div>')) return null;
  let html = template
    .replace(/<title>[^<]*<\/title>/, "")
    .replace(/<meta name="description"[^>]*>/, "")
    .replace(
      "</head>",
      `  ${headTags(page.head, options.pageUrl, options.publicUrl)}\n    ${renderWholePage(options.stateId)}\n  </head>`,
    );
  for (const [link, href] of [...html.matchAll(STYLESHEET_LINK)].map((m) => [m[0], m[1]] as const)) {
    const css = await stylesheet(options.distDir, href);
    if (css) html = html.replace(link, () => `<style>${css}</style>`);
  }
  const scripts = deferScripts(html);
  if (!scripts) return null;
  html = scripts.html;
  const state = `<script type="application/json" id="${options.stateId}">${jsonForHtml(page.state)}</script>`;
  return html.replace(
    '<div id="root"></div>',
    () => `<div id="root">${page.html}</div>\n    ${state}\n    ${scripts.loader}`,
  );
}
