/**
 * The moderation log's self-check as operations sees it: a background check that each feed's hash chain is whole
 * (issue 30) registers itself here through `AppDeps.logSelfCheck` and `WorkerOptions.logSelfCheck`. Until one is
 * registered, the Operations page says the check is not available and no alert can open for it.
 */
export interface LogSelfCheckStatus {
  /** `broken`: at least one feed's chain does not verify. */
  state: "ok" | "broken";
  /** When the check last finished. */
  checkedAt: Date;
  /** The feeds whose chain is broken (at most a few dozen are shown). */
  brokenFeeds: string[];
  /** What the check found, for people. */
  message?: string;
}

export interface LogSelfCheck {
  /** The latest finished check, or null while none has finished yet. */
  status(): Promise<LogSelfCheckStatus | null>;
}

/** What the Operations page and the alert check read: the status, or why there is none. */
export type LogCheckReading =
  | { available: false }
  | { available: true; status: LogSelfCheckStatus | null; error?: string };

export async function readLogCheck(check: LogSelfCheck | undefined): Promise<LogCheckReading> {
  if (!check) return { available: false };
  try {
    return { available: true, status: await check.status() };
  } catch (error) {
    return { available: true, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}
