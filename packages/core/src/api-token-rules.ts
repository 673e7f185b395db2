/**
 * Personal API tokens (docs/decisions/0029): what a token may do and how one looks. Free of zod so the Settings page
 * and the server's secret scan can use them without the schema library.
 */

/**
 * What a token may be granted. Each is independent: a bot that moderates and reads its queue holds both `read` and
 * `moderate`. `read` covers every GET; the others cover one kind of write each.
 */
export const API_SCOPES = ["read", "submit", "moderate", "manage"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/**
 * What a route family may ask for: a scope a token can hold, or `session` for what only a signed-in person in the
 * app may do (signing in and out, making and revoking tokens): no token ever holds it.
 */
export type RouteScope = ApiScope | "session";

export const API_SCOPE_LABELS: Record<ApiScope, { label: string; description: string }> = {
  read: { label: "Read", description: "Read feeds, submissions, queues, jobs and your own account." },
  submit: { label: "Submit", description: "Upload images and send test posts." },
  moderate: {
    label: "Moderate",
    description: "Approve, reject, undo and retract; retry and reprocess jobs in feeds you moderate.",
  },
  manage: {
    label: "Manage",
    description: "Create and edit feeds, their secrets and plugins; change your profile and linked accounts.",
  },
};

/** Every token starts with this, so a scanner (ours included) recognises one pasted where it should not be. */
export const API_TOKEN_PREFIX = "curate_pat_";
/** Characters of the secret after the prefix that the Settings list shows, to tell tokens apart. */
export const API_TOKEN_HINT_LENGTH = 4;
/** The shape of a token: the prefix and 43 base64url characters (32 random bytes). */
export const API_TOKEN_PATTERN = /^curate_pat_[A-Za-z0-9_-]{43}$/;

export const API_TOKEN_LIMITS = {
  nameLength: 80,
  /** Tokens one account may hold at once (revoked and expired ones do not count). */
  perAccount: 25,
  /** The longest expiry a token may be given; a token without one lasts until it is revoked. */
  maxExpiryDays: 366,
} as const;

/** The choices the Settings form offers (days; null = no expiry). */
export const API_TOKEN_EXPIRY_CHOICES: ReadonlyArray<{ days: number | null; label: string }> = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
  { days: null, label: "No expiry" },
];

export type ApiTokenStatus = "active" | "expired" | "revoked";
