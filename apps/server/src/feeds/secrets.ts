import { PLACEHOLDER_PATTERN } from "@curate/core";

/**
 * The second net for raw credentials in feed configs (the first is each built-in plugin's schema, whose secret
 * fields take only `{{NAME}}` placeholders): it catches what unknown plugins' configs and free keys might carry.
 */

/** Keys whose values are credentials and so must be `{{NAME}}` placeholders in a stored config. */
const SECRET_KEY =
  /(token|secret|passw(or)?d|passphrase|api[-_]?key|private[-_]?key|key[-_]?pair|jwt|bearer|credential|authori[sz]ation|^auth$|webhook|dsn|connection[-_]?string|database[-_]?url|service[-_]?role|session[-_]?key|signing[-_]?key|access[-_]?key)/i;

/** Shapes of well-known raw credentials, refused wherever they appear, even inside a longer text. */
const RAW_TOKEN_PATTERNS: Array<[RegExp, string]> = [
  [/\b\d{6,12}:[A-Za-z0-9_-]{30,}\b/, "a Telegram bot token"],
  [/\bsk-[A-Za-z0-9_-]{20,}/, "an API secret key"],
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}/, "a Stripe secret key"],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, "a JWT"],
  [/\b(ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}/, "a GitHub token"],
  [/\bsecret_[A-Za-z0-9]{30,}/, "a Notion secret"],
  [/\bntn_[A-Za-z0-9]{30,}/, "a Notion token"],
  [/\bsb_secret_[A-Za-z0-9_-]{16,}/, "a Supabase secret key"],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/, "a Slack webhook URL"],
  [/discord(app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+/, "a Discord webhook URL"],
  [/\bed25519:[1-9A-HJ-NP-Za-km-z]{80,}/, "a NEAR private key"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, "a Google API key"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
  [/^[a-z][a-z0-9+.-]*:\/\/[^/?#:@\s]+:[^/?#@\s]+@/i, "a URL with a password in it"],
  [/^\s*(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}\s*$/i, "an Authorization header value"],
];

export interface SecretIssue {
  path: string;
  message: string;
}

const isPlaceholder = (value: string) => PLACEHOLDER_PATTERN.test(value.trim());

/** Every string and number a value holds, with where. */
function* leaves(value: unknown, path: string[]): Generator<[string[], string | number]> {
  if (typeof value === "string" || typeof value === "number") yield [path, value];
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* leaves(item, [...path, String(i)]);
  else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) yield* leaves(child, [...path, key]);
  }
}

/**
 * Finds raw credentials in a feed config: any non-empty value (text or number, in lists too) under a
 * credential-like key that is not a `{{NAME}}` placeholder, and any text shaped like a known credential.
 */
export function findRawSecrets(value: unknown, path: string[] = []): SecretIssue[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findRawSecrets(item, [...path, String(i)]));
  if (value && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
      const childPath = [...path, key];
      if (SECRET_KEY.test(key)) {
        const raw = [...leaves(child, childPath)].filter(
          ([, leaf]) => typeof leaf === "number" || (leaf.trim() !== "" && !isPlaceholder(leaf)),
        );
        if (raw.length > 0) {
          return raw.map(([leafPath]) => ({
            path: leafPath.join("."),
            message: `Use a {{PLACEHOLDER}} for "${key}"; raw secrets are not stored.`,
          }));
        }
        return [];
      }
      return findRawSecrets(child, childPath);
    });
  }
  if (typeof value === "string") {
    const match = RAW_TOKEN_PATTERNS.find(([pattern]) => pattern.test(value));
    if (match) {
      return [
        { path: path.join("."), message: `This looks like ${match[1]}; use a {{PLACEHOLDER}} instead.` },
      ];
    }
  }
  return [];
}
