/** Operations (alerts and the Operations page): the kinds and labels both apps share; free of zod. */

/** What an alert watches: a queue waiting too long, a failure rate, a silent source, a spent budget, the log. */
export const ALERT_KINDS = [
  "queue_age",
  "failure_rate",
  "source_silent",
  "budget_exhausted",
  "log_chain_broken",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  queue_age: "Queue waiting",
  failure_rate: "Failure rate",
  source_silent: "Silent source",
  budget_exhausted: "Budget spent",
  log_chain_broken: "Broken log chain",
};
