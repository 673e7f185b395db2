import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import type { Context } from "hono";
import type { Logger } from "pino";
import { loadPageRenderer, notFoundDocument, type PageRenderer, pageDocument } from "./ssr.ts";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".xml": "application/xml; charset=utf-8",
};

export const IMMUTABLE = "public, max-age=31536000, immutable";

export function contentTypeOf(path: string) {
  return MIME[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** Resolves a URL path inside `root`, refusing anything that escapes it. */
export function safeJoin(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const full = normalize(join(root, decoded));
  return full === root || full.startsWith(root + sep) ? full : null;
}

async function readIfFile(path: string): Promise<Buffer | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? await readFile(path) : null;
  } catch {
    return null;
  }
}

/**
 * The app pages' Content-Security-Policy: scripts only from this origin or carrying this response's nonce (no
 * inline script otherwise; data embedded in a page goes in a non-executing JSON block). Wallet executors run in
 * sandboxed `srcdoc` frames that inherit this policy, get the nonce from the app, and talk to their own wallet
 * hosts, so connections and frames stay open to https; which RSS hosts the app reads is the app's own rule.
 */
export interface PolicyOrigins {
  /** Services the browser calls itself (Crosspost, this deployment's RSS at PUBLIC_URL): http in development. */
  connect?: readonly string[];
  /** Where images come from besides https (uploads at PUBLIC_URL when the app is opened under another name). */
  images?: readonly string[];
}

export function contentSecurityPolicy(nonce: string, origins: PolicyOrigins = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' https: data: blob:", ...(origins.images ?? [])].join(" "),
    "font-src 'self'",
    ["connect-src 'self' https:", ...(origins.connect ?? [])].join(" "),
    "frame-src 'self' https:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** index.html with this response's nonce on every script tag. */
function withNonce(html: string, nonce: string): string {
  return html.replace(/<script\b(?![^>]*\bnonce=)/g, `<script nonce="${nonce}"`);
}

/** Server rendering of the public pages: where the web app's server entry is and how its data is fetched. */
export interface ServerRendering {
  /** The built server entry (apps/web/dist-server/entry-server.js); missing means every page is the shell. */
  entry: string;
  /** Answers the page's API requests in-process, without the visitor's cookie. */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  publicUrl: string;
  timeoutMs: number;
  logger: Logger;
  /** Rendered documents kept for a moment (the same for everyone), cleared by every change; null: none kept. */
  cache: PageCache | null;
}

/**
 * Rendered pages, kept as briefly as the API's public read cache and cleared with it: a crowd opening the same
 * page costs one render per TTL. Bounded: a byte budget (oldest out first), one entry per address.
 */
export function createPageCache(ttlMs: number, maxBytes: number) {
  const entries = new Map<string, { html: string; expires: number }>();
  let bytes = 0;
  const clear = () => {
    entries.clear();
    bytes = 0;
  };
  return {
    clear,
    get(key: string): string | null {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expires > Date.now()) return entry.html;
      bytes -= entry.html.length;
      entries.delete(key);
      return null;
    },
    set(key: string, html: string) {
      if (ttlMs <= 0 || html.length > maxBytes / 20) return;
      const previous = entries.get(key);
      if (previous) {
        bytes -= previous.html.length;
        entries.delete(key);
      }
      for (const [oldKey, old] of entries) {
        if (bytes + html.length <= maxBytes) break;
        bytes -= old.html.length;
        entries.delete(oldKey);
      }
      entries.set(key, { html, expires: Date.now() + ttlMs });
      bytes += html.length;
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

/**
 * Serves the built single-page app: real files as they are (hashed assets cached for a year), a public page
 * server-rendered with its data when it can be, any other path index.html (the app shell) so client-side routes
 * load. Every HTML answer carries a fresh CSP nonce.
 */
export function spaHandler(distDir: string, origins: PolicyOrigins = {}, rendering?: ServerRendering) {
  const root = resolve(distDir);
  // Loaded at start (it brings React and the app's code), not by the first visitor.
  const renderer: Promise<PageRenderer | null> = rendering
    ? loadPageRenderer(rendering.entry, rendering.logger).catch((err) => {
        rendering.logger.error({ err }, "server rendering is off: the web app's server entry failed to load");
        return null;
      })
    : Promise.resolve(null);
  return async (c: Context) => {
    const path = safeJoin(root, c.req.path);
    const file = path && c.req.path !== "/" ? await readIfFile(path) : null;
    if (file && path) {
      const hashed = c.req.path.startsWith("/assets/");
      return c.body(new Uint8Array(file), 200, {
        "Content-Type": contentTypeOf(path),
        "Cache-Control": hashed ? IMMUTABLE : "public, max-age=0, must-revalidate",
      });
    }
    // A missing hashed asset is a stale page asking for an old build: answering HTML would break it silently.
    if (c.req.path.startsWith("/assets/")) return c.text("Not found", 404);
    // Read on each navigation (it is small and cached by the OS) so a rebuild never serves stale asset names.
    const indexHtml = await readIfFile(join(root, "index.html"));
    if (!indexHtml) {
      return c.text("The web app is not built yet: run `npm run build` first.", 503);
    }
    const nonce = randomBytes(16).toString("base64");
    let html = indexHtml.toString("utf8");
    let status: 200 | 404 = 200;
    if (rendering) {
      const page = await renderPage(await renderer, c, rendering, root, html);
      if (page?.redirect) return c.redirect(page.redirect, 302);
      if (page?.html) html = page.html;
      if (page?.notFound) status = 404;
    }
    return c.body(withNonce(html, nonce), status, {
      "Content-Type": MIME[".html"],
      // Each page carries its own nonce: never stored and reused.
      "Cache-Control": "no-store",
      "Content-Security-Policy": contentSecurityPolicy(nonce, origins),
    });
  };
}

/** The page's full document, a redirect, or null for the app shell (not a public page, slow or failing data). */
async function renderPage(
  renderer: PageRenderer | null,
  c: Context,
  rendering: ServerRendering,
  distDir: string,
  template: string,
): Promise<{ html?: string; redirect?: string; notFound?: true } | null> {
  if (!renderer) return null;
  const url = new URL(c.req.url);
  const pageUrl = `${url.pathname}${url.search}`;
  const cached = rendering.cache?.get(pageUrl);
  if (cached) return { html: cached };
  try {
    const result = await renderer.renderPage(pageUrl, {
      fetch: rendering.fetch,
      deadline: Date.now() + rendering.timeoutMs,
    });
    if (result.kind === "redirect") {
      // Only ever to a path on this site, whatever the router resolved it against.
      const target = new URL(result.location, url);
      return target.origin === url.origin ? { redirect: `${target.pathname}${target.search}` } : null;
    }
    if (result.kind === "shell") return null;
    if (result.kind === "not-found") return { html: notFoundDocument(template, result.head), notFound: true };
    const html = await pageDocument(template, result, {
      distDir,
      pageUrl,
      publicUrl: rendering.publicUrl,
      stateId: renderer.stateId,
    });
    if (html) rendering.cache?.set(pageUrl, html);
    return html ? { html } : null;
  } catch (err) {
    rendering.logger.error({ err, path: url.pathname }, "server rendering failed; sending the app shell");
    return null;
  }
}

/** Serves content-addressed uploads: a name never changes its bytes, so they are cached for a year. */
export function uploadsHandler(uploadsDir: string, mountPath = "/uploads") {
  const root = resolve(uploadsDir);
  return async (c: Context) => {
    const path = safeJoin(root, c.req.path.slice(mountPath.length));
    const file = path ? await readIfFile(path) : null;
    if (!file || !path) return c.notFound();
    return c.body(new Uint8Array(file), 200, {
      "Content-Type": contentTypeOf(path),
      "Cache-Control": IMMUTABLE,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
  };
}
