import pino from "pino";

export function createLogger(level: pino.LevelWithSilent) {
  return pino({ level, base: { service: "curate" }, timestamp: pino.stdTimeFunctions.isoTime });
}
