/** Keys whose values are credentials and so must be `{{NAME}}` placeholders in a stored config. */
const SECRET_KEY = /(token|secret|password|passwd|api[-_]?key|private[-_]?key|jwt|bearer|credential)/i;
const PLACEHOLDER = /^\s*\{\{\s*[A-Z][A-Z0-9_]*\s*\}\}\s*$/;

/** Shapes of well-known raw credentials, refused wherever they appear. */
const RAW_TOKEN_PATTERNS: Array<[RegExp, string]> = [
  [/^\d{6,12}:[A-Za-z0-9_-]{30,}$/, "a Telegram bot token"],
  [/^sk-[A-Za-z0-9_-]{20,}$/, "an API secret key"],
  [/^eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$/, "a JWT"],
  [/^(ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{20,}$/, "a GitHub token"],
  [/^secret_[A-Za-z0-9]{30,}$/, "a Notion secret"],
  [/^xox[abpr]-[A-Za-z0-9-]{10,}$/, "a Slack token"],
];

export interface SecretIssue {
  path: string;
  message: string;
}

/**
 * Finds raw credentials in a feed config: any value under a credential-like key that is not a `{{NAME}}`
 * placeholder, and any string shaped like a known token. Secrets live in the server's environment only.
 */
export function findRawSecrets(value: unknown, path: string[] = []): SecretIssue[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findRawSecrets(item, [...path, String(i)]));
  if (value && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
      const childPath = [...path, key];
      if (
        SECRET_KEY.test(key) &&
        typeof child === "string" &&
        child.trim() !== "" &&
        !PLACEHOLDER.test(child)
      ) {
        return [
          {
            path: childPath.join("."),
            message: `Use a {{PLACEHOLDER}} for "${key}"; raw secrets are not stored.`,
          },
        ];
      }
      return findRawSecrets(child, childPath);
    });
  }
  if (typeof value === "string") {
    const match = RAW_TOKEN_PATTERNS.find(([pattern]) => pattern.test(value.trim()));
    if (match) {
      return [
        { path: path.join("."), message: `This looks like ${match[1]}; use a {{PLACEHOLDER}} instead.` },
      ];
    }
  }
  return [];
}
