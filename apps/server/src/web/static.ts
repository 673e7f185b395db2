import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import type { Context } from "hono";

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
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self'",
    "connect-src 'self' https:",
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

/**
 * Serves the built single-page app: real files as they are (hashed assets cached for a year),
 * any other path gets index.html (with a fresh CSP nonce) so client-side routes load.
 */
export function spaHandler(distDir: string) {
  const root = resolve(distDir);
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
    return c.body(withNonce(indexHtml.toString("utf8"), nonce), 200, {
      "Content-Type": MIME[".html"],
      // Each page carries its own nonce: never stored and reused.
      "Cache-Control": "no-store",
      "Content-Security-Policy": contentSecurityPolicy(nonce),
    });
  };
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
