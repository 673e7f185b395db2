import { Cron } from "croner";

/**
 * A feed's `ingestion.schedule`: five cron fields, or six with seconds first, or a nickname (`@hourly`). Croner, as
 * the recap rules in core use it, so the editor and the server read a schedule alike.
 */
function cronOf(expression: string, timezone: string): Cron {
  return new Cron(expression.trim(), { paused: true, timezone });
}

/** Why a cron schedule cannot be read, or null when it can (in `timezone`, UTC by default). */
export function scheduleError(expression: string, timezone = "UTC"): string | null {
  try {
    cronOf(expression, timezone);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, "") : String(error);
    return `Not a readable cron schedule: ${reason}`;
  }
}

/** The first run of a cron schedule after `after`. Throws when the schedule cannot be read or never runs again. */
export function nextScheduledRun(expression: string, after: Date, timezone = "UTC"): Date {
  const next = cronOf(expression, timezone).nextRun(after);
  if (!next) throw new Error(`The schedule "${expression}" has no run after ${after.toISOString()}`);
  return next;
}
