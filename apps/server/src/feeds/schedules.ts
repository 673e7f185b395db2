import { CronExpressionParser } from "cron-parser";

/** Why a cron schedule cannot be read, or null when it can (in `timezone`, UTC by default). */
export function scheduleError(expression: string, timezone = "UTC"): string | null {
  try {
    CronExpressionParser.parse(expression, { tz: timezone, strict: false });
    return null;
  } catch (error) {
    return `Not a readable cron schedule: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The first run of a cron schedule after `after`. Throws when the schedule cannot be read. */
export function nextScheduledRun(expression: string, after: Date, timezone = "UTC"): Date {
  return CronExpressionParser.parse(expression, { currentDate: after, tz: timezone }).next().toDate();
}
