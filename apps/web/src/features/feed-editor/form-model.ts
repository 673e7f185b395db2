import { MIN_POLLING_INTERVAL_MS } from "@curate/core";

/** The edit page's working config: whatever the JSON holds, unknown keys included. */
export type WorkingConfig = Record<string, unknown>;
type Entry = Record<string, unknown>;

export interface SearchForm {
  /** The stored search with its other keys (searchId, pageSize, …), kept when the form writes back. */
  base: Entry;
  type: string;
  query: string;
}

export interface SourceForm {
  base: Entry;
  plugin: string;
  search: SearchForm[];
}

export interface StepForm {
  base: Entry;
  plugin: string;
  /** The step's config as committed JSON (the field's text is edited locally and committed on blur). */
  config: Entry;
}

export interface FeedForm {
  name: string;
  description: string;
  enabled: boolean;
  /** As typed; empty means "not set". */
  pollingIntervalMs: string;
  sources: SourceForm[];
  streamEnabled: boolean;
  transforms: StepForm[];
  distributors: StepForm[];
  /** Comma-separated Twitter handles. */
  approvers: string;
  blacklist: string;
}

const isEntry = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const entries = (value: unknown): Entry[] => (Array.isArray(value) ? value.filter(isEntry) : []);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** "a, b,,c " → ["a", "b", "c"]: split on commas, trimmed, empties dropped. */
export function splitHandles(value: string): string[] {
  return value
    .split(",")
    .map((handle) => handle.trim())
    .filter(Boolean);
}

function twitterHandles(group: unknown): string {
  const list = isEntry(group) && Array.isArray(group.twitter) ? group.twitter : [];
  return list.filter((handle): handle is string => typeof handle === "string").join(", ");
}

function stepForm(step: Entry): StepForm {
  return { base: step, plugin: text(step.plugin), config: isEntry(step.config) ? step.config : {} };
}

/** The form's view of a working config. */
export function formFromConfig(config: WorkingConfig | null): FeedForm {
  const c = config ?? {};
  const outputs = isEntry(c.outputs) ? c.outputs : {};
  const stream = isEntry(outputs.stream) ? outputs.stream : {};
  const moderation = isEntry(c.moderation) ? c.moderation : {};
  return {
    name: text(c.name),
    description: text(c.description),
    enabled: c.enabled !== false,
    pollingIntervalMs: typeof c.pollingIntervalMs === "number" ? String(c.pollingIntervalMs) : "",
    sources: entries(c.sources).map((source) => ({
      base: source,
      plugin: text(source.plugin),
      search: entries(source.search).map((search) => ({
        base: search,
        type: text(search.type),
        query: text(search.query),
      })),
    })),
    streamEnabled: stream.enabled === true,
    transforms: entries(stream.transform).map(stepForm),
    distributors: entries(stream.distribute).map(stepForm),
    approvers: twitterHandles(moderation.approvers),
    blacklist: twitterHandles(moderation.blacklist),
  };
}

/** An empty polling field means "not set"; anything else is the number typed (validated separately). */
export function pollingIntervalOf(value: string): number | undefined {
  const trimmed = value.trim();
  return trimmed === "" ? undefined : Number(trimmed);
}

function withOptionalText(entry: Entry, key: string, value: string): Entry {
  const next = { ...entry };
  if (value.trim()) next[key] = value;
  else delete next[key];
  return next;
}

function withTwitter(group: unknown, handles: string[]): Entry | undefined {
  const next: Entry = isEntry(group) ? { ...group } : {};
  if (handles.length) next.twitter = handles;
  else if ("twitter" in next) next.twitter = [];
  return Object.keys(next).length ? next : undefined;
}

/**
 * The working config with the form's values written into it. Keys the form does not show are kept:
 * on the config itself, on each source, search, transform and distributor (through their `base`).
 */
export function configFromForm(base: WorkingConfig | null, form: FeedForm): WorkingConfig {
  const config: WorkingConfig = { ...(base ?? {}) };
  config.name = form.name;
  config.description = form.description;
  config.enabled = form.enabled;

  const polling = pollingIntervalOf(form.pollingIntervalMs);
  if (polling === undefined) delete config.pollingIntervalMs;
  else config.pollingIntervalMs = polling;

  if (form.sources.length || Array.isArray(config.sources)) {
    config.sources = form.sources.map((source) => {
      const next: Entry = { ...source.base, plugin: source.plugin };
      if (source.search.length || Array.isArray(source.base.search)) {
        next.search = source.search.map((search) =>
          withOptionalText(withOptionalText(search.base, "type", search.type), "query", search.query),
        );
      }
      return next;
    });
  }

  const outputs = isEntry(config.outputs) ? { ...config.outputs } : {};
  const stream = isEntry(outputs.stream) ? { ...outputs.stream } : {};
  stream.enabled = form.streamEnabled;
  if (form.transforms.length || Array.isArray(stream.transform)) {
    stream.transform = form.transforms.map((step) => ({
      ...step.base,
      plugin: step.plugin,
      config: step.config,
    }));
  }
  if (form.distributors.length || Array.isArray(stream.distribute)) {
    stream.distribute = form.distributors.map((step) => ({
      ...step.base,
      plugin: step.plugin,
      config: step.config,
    }));
  }
  outputs.stream = stream;
  config.outputs = outputs;

  const moderation = isEntry(config.moderation) ? { ...config.moderation } : {};
  const approvers = withTwitter(moderation.approvers, splitHandles(form.approvers));
  const blacklist = withTwitter(moderation.blacklist, splitHandles(form.blacklist));
  if (approvers) moderation.approvers = approvers;
  else delete moderation.approvers;
  if (blacklist) moderation.blacklist = blacklist;
  else delete moderation.blacklist;
  if (Object.keys(moderation).length) config.moderation = moderation;
  else delete config.moderation;

  return config;
}

export interface FormErrors {
  name?: string;
  description?: string;
  pollingIntervalMs?: string;
}

/** The edit form's rules (document 2 §5). */
export function validateForm(form: FeedForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.name.trim()) errors.name = "Feed name is required";
  if (!form.description.trim()) errors.description = "Description is required";
  const polling = pollingIntervalOf(form.pollingIntervalMs);
  if (polling !== undefined && (!Number.isInteger(polling) || polling < MIN_POLLING_INTERVAL_MS)) {
    errors.pollingIntervalMs = `Polling interval must be a whole number of at least ${MIN_POLLING_INTERVAL_MS} ms`;
  }
  return errors;
}

export type JsonParse = { ok: true; config: WorkingConfig | null } | { ok: false; message: string };

/** The JSON editor's text: empty is valid (no config); otherwise it must parse to an object. */
export function parseConfigJson(value: string): JsonParse {
  if (!value.trim()) return { ok: true, config: null };
  try {
    const parsed: unknown = JSON.parse(value);
    if (!isEntry(parsed)) return { ok: false, message: "The configuration must be a JSON object" };
    return { ok: true, config: parsed };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** A step's JSON config field: it commits only an object; anything else is refused and the field reverts. */
export function parseStepConfig(value: string): Entry | null {
  if (!value.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isEntry(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export const configToJson = (config: WorkingConfig | null): string =>
  config === null ? "" : JSON.stringify(config, null, 2);
