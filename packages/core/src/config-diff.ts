/**
 * A structural diff of two feed configs (zod-free, so the edit page can use it cheaply): one entry per leaf that was
 * added, removed or changed, named by its path (`outputs.stream.distribute[0].config.chatId`). Arrays compare
 * position by position.
 */
export type ConfigChangeKind = "added" | "removed" | "changed";

export interface ConfigChange {
  path: string;
  kind: ConfigChangeKind;
  before?: unknown;
  after?: unknown;
}

/** Changes one version keeps: a config is bounded (FEED_LIMITS.configBytes), and so is what a history shows. */
export const MAX_CONFIG_CHANGES = 200;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function join(path: string, key: string | number) {
  if (typeof key === "number") return `${path}[${key}]`;
  const plain = /^[A-Za-z_$][\w$]*$/.test(key);
  if (!plain) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

function walk(before: unknown, after: unknown, path: string, out: ConfigChange[]) {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const next = join(path, key);
      if (!(key in after)) out.push({ path: next, kind: "removed", before: before[key] });
      else if (!(key in before)) out.push({ path: next, kind: "added", after: after[key] });
      else walk(before[key], after[key], next, out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index++) {
      const next = join(path, index);
      if (index >= after.length) out.push({ path: next, kind: "removed", before: before[index] });
      else if (index >= before.length) out.push({ path: next, kind: "added", after: after[index] });
      else walk(before[index], after[index], next, out);
    }
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push({ path: path || "(config)", kind: "changed", before, after });
  }
}

/** What changed from `before` to `after`; `count` is every change, `changes` the first MAX_CONFIG_CHANGES. */
export function diffConfigs(before: unknown, after: unknown): { changes: ConfigChange[]; count: number } {
  const out: ConfigChange[] = [];
  walk(before, after, "", out);
  return { changes: out.slice(0, MAX_CONFIG_CHANGES), count: out.length };
}

/** The channels a config publishes to: the stream's distributors and every recap's. */
export function configChannels(config: unknown): unknown[] {
  if (!isObject(config) || !isObject(config.outputs)) return [];
  const { stream, recap } = config.outputs;
  const channels: unknown[] = [];
  if (isObject(stream) && Array.isArray(stream.distribute)) channels.push(...stream.distribute);
  for (const one of Array.isArray(recap) ? recap : recap ? [recap] : []) {
    if (isObject(one) && Array.isArray(one.distribute)) channels.push(...one.distribute);
  }
  return channels.map((channel) =>
    isObject(channel) ? { plugin: channel.plugin, config: channel.config ?? null } : channel,
  );
}

/** Whether a save adds, removes or reconfigures a channel (history labels such saves). */
export function channelsChanged(before: unknown, after: unknown): boolean {
  return diffConfigs(configChannels(before), configChannels(after)).count > 0;
}
