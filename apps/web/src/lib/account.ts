/** Long implicit accounts (64 hex characters) are shortened for display, keeping both ends: "a1b2c3d4…e5f6". */
export function shortAccountId(accountId: string): string {
  return accountId.length > 24 ? `${accountId.slice(0, 8)}…${accountId.slice(-6)}` : accountId;
}
