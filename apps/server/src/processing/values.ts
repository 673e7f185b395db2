/** The most a step's stored input or output may take; larger values are kept as a marked preview. */
export const MAX_STORED_VALUE_BYTES = 256 * 1024;

/**
 * A value as a step row stores it: as it is when small enough, else a marked preview, so one huge post or reply
 * cannot bloat the job history. The full value still flows to the next step in memory.
 */
export function boundedJson(value: unknown, maxBytes = MAX_STORED_VALUE_BYTES): unknown {
  const text = JSON.stringify(value ?? null);
  if (Buffer.byteLength(text) <= maxBytes) return value ?? null;
  return {
    truncated: true,
    bytes: Buffer.byteLength(text),
    preview: text.slice(0, Math.floor(maxBytes / 4)),
  };
}
