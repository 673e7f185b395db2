/** The `?token=` of the pages readers reach from a mail: kept only when it looks like one of our tokens. */
export function tokenSearch(search: Record<string, unknown>): { token?: string } {
  const token = search.token;
  return typeof token === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? { token } : {};
}
