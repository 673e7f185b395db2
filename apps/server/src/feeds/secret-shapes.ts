import { base58Decode, PLACEHOLDER_PATTERN } from "@curate/core";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

/**
 * Raw credentials that no single pattern describes: a checksum, a decoded length or a URL's parameters decide. Each
 * test is tuned against ordinary values (sentences, CIDs, hashes, public keys, pagination links) as much as for
 * the credential itself: a stored config that matches is hidden from everyone but its owners.
 */

const BIP39_WORDS: ReadonlySet<string> = new Set(wordlist);
const PHRASE_LENGTHS = [12, 15, 18, 21, 24];

/** List words a phrase may sit among and still be found: labels like "seed phrase", or "keep" after it. */
const PHRASE_MARGIN = 3;

/**
 * Whether a run of list words holds a phrase. Only windows within a few words of the run's start or end are tried:
 * the words around a pasted phrase are few, and a long run of list words (whose checksum is only 4 bits for 12
 * words) is not tried at every offset, where some window would pass by chance.
 */
function runHoldsPhrase(run: string[]): boolean {
  for (const length of PHRASE_LENGTHS) {
    const last = run.length - length;
    const starts = new Set<number>();
    for (let offset = 0; offset <= Math.min(PHRASE_MARGIN, last); offset++)
      starts.add(offset).add(last - offset);
    for (const start of starts) {
      if (validateMnemonic(run.slice(start, start + length).join(" "), wordlist)) return true;
    }
  }
  return false;
}

/** A BIP-39 seed phrase anywhere in the text: 12 to 24 English-list words in a row whose checksum holds. */
export function holdsSeedPhrase(text: string): boolean {
  const tokens = text.split(/\s+/);
  if (tokens.length < PHRASE_LENGTHS[0]) return false;
  let run: string[] = [];
  for (const token of tokens) {
    const word = token.toLowerCase();
    if (BIP39_WORDS.has(word)) {
      run.push(word);
      continue;
    }
    if (run.length >= PHRASE_LENGTHS[0] && runHoldsPhrase(run)) return true;
    run = [];
  }
  return run.length >= PHRASE_LENGTHS[0] && runHoldsPhrase(run);
}

const BASE58_RUN = /[1-9A-HJ-NP-Za-km-z]+/g;

/**
 * Base58 of 64 bytes is at most 88 characters, and usually 87–88; about one key in 16,000 is 86 or shorter (a zero
 * first byte, written as a single "1", and a small second one). Public keys and transaction hashes are 32 bytes
 * (~44 characters) and CIDv0s 46, so they never reach the shortest length.
 */
const SECRET_KEY_BASE58_LENGTH = { min: 64, max: 88 } as const;

/** A 64-byte ed25519 secret key in base58, as NEAR wallets export it without its `ed25519:` prefix. */
export function holdsBase58SecretKey(text: string): boolean {
  for (const [run] of text.matchAll(BASE58_RUN)) {
    if (run.length < SECRET_KEY_BASE58_LENGTH.min || run.length > SECRET_KEY_BASE58_LENGTH.max) continue;
    if (base58Decode(run).length === 64) return true;
  }
  return false;
}

/** Query (or fragment) parameters whose value is a credential whatever it looks like. */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  "apikey",
  "apisecret",
  "accesstoken",
  "accesskey",
  "authtoken",
  "refreshtoken",
  "idtoken",
  "sessiontoken",
  "clientsecret",
  "secret",
  "secretkey",
  "privatekey",
  "password",
  "passwd",
  "pwd",
  "jwt",
  "xamzsecuritytoken",
  "xamzsignature",
  "xgoogsignature",
]);

/**
 * Parameters that carry credentials only sometimes (`?key=` is also a sort key, `?token=` a short invite): their
 * value must also look opaque.
 */
const OPAQUE_CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  "key",
  "token",
  "sig",
  "signature",
  "auth",
  "sessionid",
]);

/** Values that stand in for a credential in examples: `YOUR_API_KEY`, `<key>`, `${TOKEN}`, `xxxx`, `***`. */
const STAND_IN = /^(<[^>]*>|\$\{[^}]*\}|[A-Z][A-Z_]*|x+|X+|\*+|\.{3}|…)$/;

/** Long, with letters and digits, and of the characters tokens are made of. */
export function looksOpaque(value: string): boolean {
  return (
    value.length >= 16 && /^[A-Za-z0-9._~+/=%-]+$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value)
  );
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

function urlParams(url: URL): Array<[string, string]> {
  const params = [...url.searchParams];
  // Tokens also travel in the fragment (`#access_token=…` from an OAuth redirect).
  if (url.hash.includes("=")) params.push(...new URLSearchParams(url.hash.slice(1)));
  return params;
}

/** The name of a credential-like parameter carried by a URL in the text, or null. */
export function credentialParamInUrl(text: string): string | null {
  if (!text.includes("://")) return null;
  for (const [candidate] of text.matchAll(URL_IN_TEXT)) {
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      continue;
    }
    for (const [name, raw] of urlParams(url)) {
      const value = raw.trim();
      if (!value || PLACEHOLDER_PATTERN.test(value) || STAND_IN.test(value)) continue;
      const normalized = name.toLowerCase().replace(/[-_]/g, "");
      if (CREDENTIAL_PARAMS.has(normalized)) return name;
      if (OPAQUE_CREDENTIAL_PARAMS.has(normalized) && looksOpaque(value)) return name;
    }
  }
  return null;
}

const COOKIE_HEADER_LINE = /^\s*(set-)?cookie\s*:\s*[^=\s;]+=[^;\s]/i;
const COOKIE_PAIR = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)=("?)([^";\s]*)\2$/;
const COOKIE_ATTRIBUTE = /^(secure|httponly|partitioned|(expires|max-age|domain|path|samesite)=.*)$/i;
const SESSION_COOKIE_NAME = /sess|sid|auth|token|jwt|login|remember|^__(host|secure)-/i;

/**
 * A `Cookie:` or `Set-Cookie:` header line, or a cookie header's value (`name=value; name2=value2`, attributes
 * allowed) with an opaque value, when it names more than one cookie, has attributes or names a session cookie:
 * one `name=value` alone is too common a value to call a cookie.
 */
export function looksLikeCookie(text: string): boolean {
  if (COOKIE_HEADER_LINE.test(text)) return true;
  if (!text.includes("=")) return false;
  const parts = text
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean);
  const pairs: Array<{ name: string; value: string }> = [];
  let attributes = 0;
  for (const [index, part] of parts.entries()) {
    const pair = COOKIE_PAIR.exec(part);
    if (index > 0 && COOKIE_ATTRIBUTE.test(part)) attributes++;
    else if (pair) pairs.push({ name: pair[1], value: pair[3] });
    else return false;
  }
  if (!pairs.some((pair) => looksOpaque(pair.value))) return false;
  return pairs.length >= 2 || attributes > 0 || SESSION_COOKIE_NAME.test(pairs[0]?.name ?? "");
}
