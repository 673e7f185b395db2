import { MAX_PAGE } from "@curate/core";

/** The `?token=` of the pages readers reach from a mail: kept only when it looks like one of our tokens. */
export function tokenSearch(search: Record<string, unknown>): { token?: string } {
  const token = search.token;
  return typeof token === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? { token } : {};
}

/** The catch-all page's `?page=` (zero-based) and `?mail=` (the open mail's id), each kept only when well formed. */
export function caughtMailSearch(search: Record<string, unknown>): { page?: number; mail?: string } {
  const page = Number(search.page);
  const mail = search.mail;
  return {
    ...(Number.isInteger(page) && page > 0 && page <= MAX_PAGE ? { page } : {}),
    ...(typeof mail === "string" && /^[0-9A-Za-z-]{1,64}$/.test(mail) ? { mail } : {}),
  };
}
