/**
 * Post addresses, parsed into their network and rebuilt in one form: intake stores a post's address in that form,
 * and an `!approve` / `!reject` that names a post by its address (from any network) finds it whatever form the
 * moderator copied (twitter.com or x.com, a share link's query, a Mastodon status URI, a word's full stop after
 * it). Free of zod.
 */
import { type Platform, submissionKey } from "./platforms.ts";

/** A post address named in a text: as written there, rebuilt, and the post's key when the address holds it. */
export interface NamedPost {
  written: string;
  /** The address in the form intake stores (`canonicalPostUrl`). */
  url: string;
  platform: Platform | null;
  /** The submission key (`submissionKey`) the address names, when its network's ids can be read from it. */
  key: string | null;
}

/** A web address in a text, whole: an `@name` or `#tag` inside one (`https://host/@alice/1`) is part of it. */
export const WEB_ADDRESS = /https?:\/\/[^\s<>"]+/giu;
/** Ends a sentence rather than the address: "see https://x.com/a/status/1." */
const TRAILING = /[.,;:!?'"*…»]$/u;
const X_HOSTS = new Set(["x.com", "twitter.com", "mobile.twitter.com", "mobile.x.com"]);
const X_STATUS = /^\/(\w{1,15})\/status(?:es)?\/(\d{1,20})(?:\/|$)/;
const X_ANONYMOUS_STATUS = /^\/i\/(?:web\/)?status\/(\d{1,20})(?:\/|$)/;
const BLUESKY_POST = /^\/profile\/([a-zA-Z0-9._:-]{1,253})\/post\/([a-zA-Z0-9._~:-]{1,512})\/?$/;
const TELEGRAM_HOSTS = new Set(["t.me", "telegram.me"]);
/** `t.me/<username>/<message>`, in a forum `t.me/<username>/<topic>/<message>`, the preview `t.me/s/…`. */
const TELEGRAM_PUBLIC = /^\/(?:s\/)?([a-zA-Z]\w{3,31})\/(?:\d{1,12}\/)?(\d{1,12})\/?$/;
/** A private supergroup's or channel's message: its chat id is -100 followed by the id in the address. */
const TELEGRAM_PRIVATE = /^\/c\/(\d{1,15})\/(?:\d{1,12}\/)?(\d{1,12})\/?$/;
const MASTODON_WEB = /^\/@(\w{1,64}(?:@[a-z0-9.-]{1,253})?)\/(\d{1,24})\/?$/i;
/** A status URI as Mastodon writes it: the id every instance knows the status by. */
const MASTODON_URI = /^\/users\/(\w{1,64})\/statuses\/(\d{1,24})\/?$/;

/** The address without what the sentence around it added: closing punctuation, a bracket it opened outside. */
function trimmed(written: string): string {
  let address = written;
  for (;;) {
    if (TRAILING.test(address)) address = address.slice(0, -1);
    else if (address.endsWith(")") && count(address, "(") < count(address, ")"))
      address = address.slice(0, -1);
    else return address;
  }
}

const count = (text: string, char: string) => text.split(char).length - 1;

function parse(address: string): URL | null {
  try {
    const url = new URL(address);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

interface Parsed {
  url: string;
  platform: Platform | null;
  key: string | null;
}

function parsed(address: string): Parsed | null {
  const url = parse(address);
  if (!url) return null;
  const host = url.hostname.replace(/^www\./, "");
  const path = url.pathname;
  if (X_HOSTS.has(host)) {
    const status = X_STATUS.exec(path);
    if (status)
      return { url: `https://x.com/${status[1]}/status/${status[2]}`, platform: "twitter", key: status[2] };
    const anonymous = X_ANONYMOUS_STATUS.exec(path);
    if (anonymous) {
      return { url: `https://x.com/i/status/${anonymous[1]}`, platform: "twitter", key: anonymous[1] };
    }
  }
  if (host === "bsky.app") {
    const post = BLUESKY_POST.exec(path);
    if (post) {
      const actor = post[1].toLowerCase();
      const key = actor.startsWith("did:")
        ? submissionKey("bluesky", `at://${actor}/app.bsky.feed.post/${post[2]}`)
        : null;
      return { url: `https://bsky.app/profile/${actor}/post/${post[2]}`, platform: "bluesky", key };
    }
  }
  if (TELEGRAM_HOSTS.has(host)) {
    const open = TELEGRAM_PUBLIC.exec(path);
    if (open)
      return { url: `https://t.me/${open[1].toLowerCase()}/${open[2]}`, platform: "telegram", key: null };
    const closed = TELEGRAM_PRIVATE.exec(path);
    if (closed) {
      return {
        url: `https://t.me/c/${closed[1]}/${closed[2]}`,
        platform: "telegram",
        key: submissionKey("telegram", `-100${closed[1]}:${closed[2]}`),
      };
    }
  }
  // Mastodon runs on any host: its addresses are known by their paths. Its web address and its status URI name one
  // status; the URI is the key intake stores it under.
  const web = MASTODON_WEB.exec(path);
  if (web) {
    const local = !web[1].includes("@");
    return {
      url: `https://${url.host}/@${web[1]}/${web[2]}`,
      platform: "mastodon",
      // `/@user@elsewhere/<id>` is another instance's status under this instance's own id: no URI to be had.
      key: local ? submissionKey("mastodon", `https://${url.host}/users/${web[1]}/statuses/${web[2]}`) : null,
    };
  }
  const uri = MASTODON_URI.exec(path);
  if (uri) {
    return {
      url: `https://${url.host}/@${uri[1]}/${uri[2]}`,
      platform: "mastodon",
      key: submissionKey("mastodon", `https://${url.host}/users/${uri[1]}/statuses/${uri[2]}`),
    };
  }
  // Anything else (an RSS item's page): the address itself, its scheme and host lower-cased by the parser.
  return { url: url.href, platform: null, key: null };
}

/**
 * A post's address in the one form intake stores and looks up: `https://x.com/<user>/status/<id>`,
 * `https://bsky.app/profile/<handle>/post/<rkey>`, `https://<instance>/@<user>/<id>`, `https://t.me/<chat>/<id>`,
 * and any other address (RSS items) as the URL parser writes it. What is not a web address is kept as given.
 */
export function canonicalPostUrl(address: string): string {
  return parsed(address.trim())?.url ?? address;
}

/** The post addresses a text names, at most `max`, each once. */
export function namedPostsIn(text: string, max: number): NamedPost[] {
  const named = new Map<string, NamedPost>();
  for (const match of text.matchAll(WEB_ADDRESS)) {
    if (named.size >= max) break;
    const written = trimmed(match[0]);
    const post = parsed(written);
    if (post && !named.has(written)) named.set(written, { written, ...post });
  }
  return [...named.values()];
}
