import type { XSearchWait } from "@curate/core";

/** What a feed's page says while its X searches wait for the X allowance every feed on the server shares. */
export function xSearchWaitMessage(wait: XSearchWait, now: number): string {
  const minutes = Math.ceil((Date.parse(wait.until) - now) / 60_000);
  const when = minutes <= 1 ? "shortly" : `in about ${minutes} minutes`;
  const waiting =
    wait.searches === 1
      ? "One of this feed's X searches is waiting its turn"
      : `${wait.searches} of this feed's X searches are waiting their turn`;
  return `${waiting} for the hourly X allowance that every feed on this server shares. ${
    wait.searches === 1 ? "It" : "They"
  } should run ${when}; new posts from X appear after that.`;
}
