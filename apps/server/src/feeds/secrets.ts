import { DISTRIBUTOR_ENTRIES, PLACEHOLDER_PATTERN } from "@curate/core";
import {
  credentialParamInUrl,
  holdsBase58SecretKey,
  holdsSeedPhrase,
  looksLikeCookie,
} from "./secret-shapes.ts";

/**
 * The second net for raw credentials in stored configs (the first is each built-in plugin's schema, whose secret
 * fields take only `{{NAME}}` placeholders): it catches what unknown plugins' configs, registered plugins' schemas
 * and free keys might carry. Configs stored before a shape was known are found by the start-up pass
 * (quarantine.ts), so a false positive hides a feed: every rule here is tested against ordinary values too.
 */

/** Keys whose values are credentials and so must be `{{NAME}}` placeholders in a stored config. */
const SECRET_KEY =
  /(token|secret|passw(or)?d|pwd|passphrase|api[-_]?key|private[-_]?key|key[-_]?pair|jwt|bearer|credential|authori[sz]ation|^auth$|webhook|dsn|connection[-_]?string|database[-_]?url|service[-_]?role|session[-_]?key|signing[-_]?key|access[-_]?key|cookies?$)/i;

/**
 * Keys that name something about a credential rather than hold one: a limit (`maxTokens`), a count, a type, a
 * name, a lifetime, or a tokenizer.
 */
const ABOUT_A_CREDENTIAL =
  /(count|limit|max|min|length|size|ttl|type|kind|name|header|expiry|expires|lifetime|timeout|interval)s?$|tokeni[sz]er/i;
/** The same told by a leading word, which only its case (or a separator) sets apart: `maxTokens`, `max_tokens`. */
const LEADING_QUANTITY = /^([Mm]ax|[Mm]in|[Nn]um)([A-Z0-9_-]|$)/;

const isCredentialKey = (key: string) =>
  SECRET_KEY.test(key) && !ABOUT_A_CREDENTIAL.test(key) && !LEADING_QUANTITY.test(key);

/** Shapes of well-known raw credentials, refused wherever they appear, even inside a longer text. */
const RAW_TOKEN_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // Each distributor's own credentials (a Telegram bot token, a Discord webhook URL, …), from its descriptor.
  ...DISTRIBUTOR_ENTRIES.flatMap(([, descriptor]) => descriptor.credentials),
  [/\bsk-[A-Za-z0-9_-]{20,}/, "an API secret key"],
  [/\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}/, "a Stripe secret key"],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, "a JWT"],
  [/\b(ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{20,}/, "a GitHub token"],
  // This instance's own personal API tokens (API_TOKEN_PREFIX): a script's config is no place for one.
  [/\bcurate_pat_[A-Za-z0-9_-]{20,}/, "a Curate API token"],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/, "a Slack webhook URL"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, "a Google API key"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
  [/^[a-z][a-z0-9+.-]*:\/\/[^/?#:@\s]+:[^/?#@\s]+@/i, "a URL with a password in it"],
  [/^\s*(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}\s*$/i, "an Authorization header value"],
  [
    /^\s*(proxy-)?(authorization|x-api-key|api-key|x-auth-token|x-access-token)\s*:\s*\S/i,
    "a credential header",
  ],
];

/** What a text looks like when it holds a raw credential ("a JWT"), or null. */
export function rawSecretShape(text: string): string | null {
  const known = RAW_TOKEN_PATTERNS.find(([pattern]) => pattern.test(text));
  if (known) return known[1];
  const param = credentialParamInUrl(text);
  if (param) return `a URL carrying a credential in "${param}"`;
  if (looksLikeCookie(text)) return "a cookie";
  if (holdsBase58SecretKey(text)) return "a NEAR private key";
  if (holdsSeedPhrase(text)) return "a BIP-39 seed phrase";
  return null;
}

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

/** Any non-empty value under a credential key that is not a `{{NAME}}` placeholder. */
function underCredentialKey(key: string, value: unknown, path: string[]): SecretIssue[] {
  return [...leaves(value, path)]
    .filter(([, leaf]) => typeof leaf === "number" || (leaf.trim() !== "" && !isPlaceholder(leaf)))
    .map(([leafPath]) => ({
      path: leafPath.join("."),
      message: `Use a {{PLACEHOLDER}} for "${key}"; raw secrets are not stored.`,
    }));
}

/** JSON Schema keywords whose values are instances of the schema, so a property's name says what they hold. */
const INSTANCE_KEYWORDS: ReadonlySet<string> = new Set(["default", "const", "examples", "enum"]);
/** JSON Schema keywords that map names to subschemas: the names there are properties, not credentials. */
const SUBSCHEMA_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A JSON Schema describing a property named `name` (a registered plugin's schema, an AI step's output schema):
 * `{ apiKey: { type: "string" } }` describes a credential and holds none, but a default or example under it does.
 */
function schemaIssues(name: string, schema: Record<string, unknown>, path: string[]): SecretIssue[] {
  return Object.entries(schema).flatMap(([keyword, child]) => {
    const childPath = [...path, keyword];
    if (INSTANCE_KEYWORDS.has(keyword)) {
      return isCredentialKey(name)
        ? underCredentialKey(name, child, childPath)
        : findRawSecrets(child, childPath);
    }
    return entryIssues(keyword, child, childPath);
  });
}

/** Header lists written as `{ name: "Cookie", value: "…" }` (or `key`/`header` for the name). */
function namedValueIssues(entry: Record<string, unknown>, path: string[]): SecretIssue[] | null {
  const name = [entry.name, entry.key, entry.header].find((field) => typeof field === "string");
  if (typeof name !== "string" || !("value" in entry) || !isCredentialKey(name)) return null;
  return underCredentialKey(name, entry.value, [...path, "value"]);
}

function entryIssues(key: string, child: unknown, childPath: string[]): SecretIssue[] {
  if (isCredentialKey(key)) return underCredentialKey(key, child, childPath);
  if (SUBSCHEMA_MAPS.has(key) && isRecord(child) && Object.values(child).every(isRecord)) {
    return Object.entries(child).flatMap(([name, schema]) =>
      schemaIssues(name, schema as Record<string, unknown>, [...childPath, name]),
    );
  }
  return findRawSecrets(child, childPath);
}

/**
 * Finds raw credentials in a config: any non-empty value (text or number, in lists too) under a credential-like
 * key that is not a `{{NAME}}` placeholder, and any text shaped like a known credential. Issues name the path and
 * the kind of credential, never the value.
 */
export function findRawSecrets(value: unknown, path: string[] = []): SecretIssue[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findRawSecrets(item, [...path, String(i)]));
  if (isRecord(value)) {
    const named = namedValueIssues(value, path);
    const rest = Object.entries(value).filter(([key]) => !(named && key === "value"));
    return [...(named ?? []), ...rest.flatMap(([key, child]) => entryIssues(key, child, [...path, key]))];
  }
  if (typeof value === "string") {
    const shape = rawSecretShape(value);
    if (shape) {
      return [{ path: path.join("."), message: `This looks like ${shape}; use a {{PLACEHOLDER}} instead.` }];
    }
  }
  return [];
}

/**
 * Finds raw credentials in what a plugin's registration stores and the registry shows: its URLs (a token in the
 * entry point's query) and its schema definition (a default or example under a credential-like property).
 */
export function findRawSecretsInPlugin(plugin: {
  repoUrl?: string;
  entryPoint?: string;
  schemaDefinition?: object | null;
}): SecretIssue[] {
  return findRawSecrets({
    ...(plugin.repoUrl === undefined ? {} : { repoUrl: plugin.repoUrl }),
    ...(plugin.entryPoint === undefined ? {} : { entryPoint: plugin.entryPoint }),
    ...(plugin.schemaDefinition ? { schemaDefinition: plugin.schemaDefinition } : {}),
  });
}
