/**
 * How the operator's hourly X API budget (X_API_CALLS_PER_HOUR) is shared: the bot's own work first (its mention
 * polling and its acknowledgements on X), then feed searches, round-robin per account (the feed's creator) and,
 * within an account, per feed, spread over the window's intake ticks. Pure: the database side is x-budget-store.ts.
 */

/** X counts its caps per hour; windows start on the hour, so every worker agrees on them and on when they end. */
export const X_BUDGET_WINDOW_MS = 60 * 60_000;

/** What one mention poll is reserved: one page of mentions (a busy bot's further pages come out of the searches). */
export const CALLS_PER_MENTION_POLL = 1;

export interface BudgetWindow {
  start: Date;
  end: Date;
}

export function xBudgetWindow(now: Date): BudgetWindow {
  const start = Math.floor(now.getTime() / X_BUDGET_WINDOW_MS) * X_BUDGET_WINDOW_MS;
  return { start: new Date(start), end: new Date(start + X_BUDGET_WINDOW_MS) };
}

/** Intake ticks left in the window, this one included. */
export function ticksLeftInWindow(now: Date, window: BudgetWindow, tickMs: number): number {
  return Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / Math.max(1, tickMs)));
}

/**
 * Calls the bot needs for the rest of the window: a mention poll per X mention source in every tick after this one
 * (this tick's ran before the searches), and every acknowledgement on X already waiting to be sent.
 */
export function botReserve(input: {
  ticksAfterThis: number;
  mentionSources: number;
  waitingAcknowledgements: number;
}): number {
  return (
    Math.max(0, input.ticksAfterThis) * input.mentionSources * CALLS_PER_MENTION_POLL +
    Math.max(0, input.waitingAcknowledgements)
  );
}

/** One due search, with when it last ran (null: never), which orders it within its feed. */
export interface DueSearch {
  key: string;
  lastRunAt: number | null;
}

export interface FeedDemand {
  feedId: string;
  /** When any X search of the feed last ran, due or not (null: never). */
  lastServedAt: number | null;
  searches: DueSearch[];
}

export interface AccountDemand {
  account: string;
  /** When any X search of the account's feeds last ran (null: never). */
  lastServedAt: number | null;
  feeds: FeedDemand[];
}

export interface XSearchAllocationInput {
  /** Calls left in the window (the limit less what every worker spent in it). */
  remaining: number;
  /** Calls kept for the bot's own work for the rest of the window (`botReserve`). */
  reserved: number;
  /** Intake ticks left in the window, this one included: the searches' part is spread over them. */
  ticksLeft: number;
  /** Due searches by account and feed. */
  pending: readonly AccountDemand[];
}

export interface XSearchAllocation {
  /** The searches to run this tick, in the rotation's order. */
  run: string[];
  /** Due searches that wait for a later tick or window; their cursors are left as they are. */
  postponed: string[];
  /** Whether the searches' part of this window is gone: what waits, waits for the next window. */
  windowSpent: boolean;
}

/** Never-run first, then the one that ran longest ago; ties keep their given order. */
function byWaitingLongest<T>(items: readonly T[], lastAt: (item: T) => number | null): T[] {
  return items
    .map((item, index) => ({ item, index, at: lastAt(item) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ item }) => item);
}

/**
 * Which due X searches run this tick. The searches' part of the window is what the bot's reserve leaves, spread
 * evenly over the ticks left (a tick may take a larger part when earlier ones left some), so an account whose feeds
 * become due later in the hour still finds budget. That part goes one search per account in turn, and within an
 * account one per feed in turn; each search counts one call. The rotation's starting point is where the previous
 * ticks left off, read from when searches last ran (their cursors' times): the account, then the feed, then the
 * search served longest ago goes first, never-served ones before all, ties by name. Every worker reads the same
 * cursors, so no rotation state is kept besides them.
 */
export function allocateXSearches(input: XSearchAllocationInput): XSearchAllocation {
  const pool = Math.max(0, Math.floor(input.remaining - input.reserved));
  const ticks = Math.max(1, Math.floor(input.ticksLeft));
  let share = ticks === 1 ? pool : Math.ceil(pool / ticks);

  const accounts = byWaitingLongest(
    [...input.pending].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0)),
    (account) => account.lastServedAt,
  ).map((account) => ({
    feeds: byWaitingLongest(
      [...account.feeds].sort((a, b) => (a.feedId < b.feedId ? -1 : a.feedId > b.feedId ? 1 : 0)),
      (feed) => feed.lastServedAt,
    ).map((feed) => byWaitingLongest(feed.searches, (search) => search.lastRunAt)),
    nextFeed: 0,
  }));

  const run: string[] = [];
  let waiting = accounts.some((account) => account.feeds.some((feed) => feed.length > 0));
  while (share > 0 && waiting) {
    waiting = false;
    for (const account of accounts) {
      if (share === 0) break;
      const count = account.feeds.length;
      for (let step = 0; step < count; step++) {
        const feed = account.feeds[(account.nextFeed + step) % count];
        const search = feed.shift();
        if (!search) continue;
        run.push(search.key);
        share -= 1;
        account.nextFeed = (account.nextFeed + step + 1) % count;
        break;
      }
      if (account.feeds.some((feed) => feed.length > 0)) waiting = true;
    }
  }

  const postponed = accounts.flatMap((account) => account.feeds.flatMap((feed) => feed.map((s) => s.key)));
  return { run, postponed, windowSpent: postponed.length > 0 && pool - run.length <= 0 };
}
