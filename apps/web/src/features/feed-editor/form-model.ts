import {
  ACKNOWLEDGEMENT_NETWORKS,
  type AcknowledgementNetwork,
  builtinPluginName,
  DECIDE_WITHIN_MESSAGE,
  FEED_FORM_MESSAGES,
  isValidTimezone,
  MAX_DECIDE_WITHIN_HOURS,
  MAX_POLLING_INTERVAL_MS,
  MAX_UNDO_WINDOW_SECONDS,
  MIN_DECIDE_WITHIN_HOURS,
  MIN_POLLING_INTERVAL_MS,
  MODERATED_PLATFORMS,
  type ModeratedPlatform,
  scheduleProblem,
  TIMEZONE_MESSAGE,
} from "@curate/core";
import {
  type GovernanceErrors,
  type GovernanceForm,
  governanceErrors,
  governanceForm,
  withGovernance,
} from "./governance-form";

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

/** A recap: a scheduled digest of the feed's approvals, with its own steps. */
export interface RecapForm {
  /** The stored recap with its other keys, kept when the form writes back. */
  base: Entry;
  id: string;
  name: string;
  enabled: boolean;
  /** Five-part cron. */
  schedule: string;
  /** IANA name; empty means UTC. */
  timezone: string;
  transforms: StepForm[];
  batchTransforms: StepForm[];
  distributors: StepForm[];
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
  /** Comma-separated handles per network, as typed. */
  approvers: Record<ModeratedPlatform, string>;
  blacklist: Record<ModeratedPlatform, string>;
  /** Seconds an approval waits so that it can be undone, as typed; empty means at once. */
  undoWindowSeconds: string;
  /** Whether the public moderation log names who rejected or retracted a post (on unless the feed turned it off). */
  nameRejectersInLog: boolean;
  /** The queue's service level in hours, as typed; empty means none. */
  decideWithinHours: string;
  /** Quorum decisions and earned trust (off unless set). */
  governance: GovernanceForm;
  /** The bot's replies on the post's network: which networks, and on which occasions. */
  acknowledgements: AcknowledgementsForm;
  recaps: RecapForm[];
}

export interface AcknowledgementsForm {
  networks: Record<AcknowledgementNetwork, boolean>;
  onSubmit: boolean;
  onApprove: boolean;
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

function handlesByNetwork(group: unknown): Record<ModeratedPlatform, string> {
  const listed = (platform: ModeratedPlatform) => {
    const list = isEntry(group) && Array.isArray(group[platform]) ? group[platform] : [];
    return list.filter((handle): handle is string => typeof handle === "string").join(", ");
  };
  return Object.fromEntries(MODERATED_PLATFORMS.map((p) => [p, listed(p)])) as Record<
    ModeratedPlatform,
    string
  >;
}

function stepForm(step: Entry): StepForm {
  return { base: step, plugin: text(step.plugin), config: isEntry(step.config) ? step.config : {} };
}

function recapForm(recap: Entry): RecapForm {
  return {
    base: recap,
    id: text(recap.id),
    name: text(recap.name),
    enabled: recap.enabled !== false,
    schedule: text(recap.schedule),
    timezone: text(recap.timezone),
    transforms: entries(recap.transform).map(stepForm),
    batchTransforms: entries(recap.batchTransform).map(stepForm),
    distributors: entries(recap.distribute).map(stepForm),
  };
}

/** A new recap in the form: weekly on Monday morning, in the browser's timezone. */
export function newRecapForm(existing: RecapForm[], timezone: string): RecapForm {
  const taken = new Set(existing.map((recap) => recap.id));
  let n = existing.length + 1;
  while (taken.has(n === 1 ? "weekly" : `recap-${n}`)) n++;
  return {
    base: { enabled: true },
    id: n === 1 ? "weekly" : `recap-${n}`,
    name: n === 1 ? "Weekly digest" : `Recap ${n}`,
    enabled: true,
    schedule: "0 9 * * 1",
    timezone,
    transforms: [],
    batchTransforms: [],
    distributors: [],
  };
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
    approvers: handlesByNetwork(moderation.approvers),
    blacklist: handlesByNetwork(moderation.blacklist),
    undoWindowSeconds:
      typeof moderation.undoWindowSeconds === "number" ? String(moderation.undoWindowSeconds) : "",
    nameRejectersInLog: moderation.nameRejectersInLog !== false,
    decideWithinHours:
      typeof moderation.decideWithinHours === "number" ? String(moderation.decideWithinHours) : "",
    governance: governanceForm(moderation),
    acknowledgements: acknowledgementsForm(c.acknowledgements),
    recaps: (Array.isArray(outputs.recap)
      ? entries(outputs.recap)
      : isEntry(outputs.recap)
        ? [outputs.recap]
        : []
    ).map(recapForm),
  };
}

/**
 * The RSS distributors' channel title and description follow the feed's name and description, as the create
 * wizard derives them. Only a text still equal to the feed's previous one follows: a title the owner wrote
 * differently on purpose stays.
 */
export function withRssTextInStep(previous: FeedForm, next: FeedForm): FeedForm {
  if (previous.name === next.name && previous.description === next.description) return next;
  let changed = false;
  const distributors = next.distributors.map((step) => {
    if (builtinPluginName(step.plugin) !== "rss") return step;
    const feedConfig = isEntry(step.config.feedConfig) ? step.config.feedConfig : {};
    const follow = (key: "title" | "description", before: string, after: string) =>
      before !== after && (feedConfig[key] === undefined || feedConfig[key] === before);
    const title = follow("title", previous.name, next.name);
    const description = follow("description", previous.description, next.description);
    if (!title && !description) return step;
    changed = true;
    return {
      ...step,
      config: {
        ...step.config,
        feedConfig: {
          ...feedConfig,
          ...(title ? { title: next.name } : {}),
          ...(description ? { description: next.description } : {}),
        },
      },
    };
  });
  return changed ? { ...next, distributors } : next;
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

/** The stored lists with the form's written in; networks the form does not show (e.g. `discord`) are kept. */
function withNetworks(group: unknown, typed: Record<ModeratedPlatform, string>): Entry | undefined {
  const next: Entry = isEntry(group) ? { ...group } : {};
  for (const platform of MODERATED_PLATFORMS) {
    const handles = splitHandles(typed[platform]);
    if (handles.length) next[platform] = handles;
    else if (platform in next) next[platform] = [];
  }
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
  const recaps = recapsFromForm(outputs.recap, form.recaps);
  if (recaps === undefined) delete outputs.recap;
  else outputs.recap = recaps;
  config.outputs = outputs;

  const moderation = withGovernance(isEntry(config.moderation) ? config.moderation : {}, form.governance);
  const approvers = withNetworks(moderation.approvers, form.approvers);
  const blacklist = withNetworks(moderation.blacklist, form.blacklist);
  if (approvers) moderation.approvers = approvers;
  else delete moderation.approvers;
  if (blacklist) moderation.blacklist = blacklist;
  else delete moderation.blacklist;
  const undoWindow = form.undoWindowSeconds.trim();
  if (undoWindow === "") delete moderation.undoWindowSeconds;
  else moderation.undoWindowSeconds = Number(undoWindow);
  const decideWithin = form.decideWithinHours.trim();
  if (decideWithin === "") delete moderation.decideWithinHours;
  else moderation.decideWithinHours = Number(decideWithin);
  // Naming is the default, so only a feed that turned it off (or had the key already) carries it.
  if (!form.nameRejectersInLog) moderation.nameRejectersInLog = false;
  else if ("nameRejectersInLog" in moderation) moderation.nameRejectersInLog = true;
  if (Object.keys(moderation).length) config.moderation = moderation;
  else delete config.moderation;

  const acknowledgements = acknowledgementsConfig(form.acknowledgements);
  if (acknowledgements) config.acknowledgements = acknowledgements;
  else delete config.acknowledgements;

  return config;
}

function acknowledgementsForm(value: unknown): AcknowledgementsForm {
  const stored = isEntry(value) ? value : {};
  const networks = isEntry(stored.networks) ? stored.networks : {};
  return {
    networks: Object.fromEntries(
      ACKNOWLEDGEMENT_NETWORKS.map((network) => [network, networks[network] === true]),
    ) as Record<AcknowledgementNetwork, boolean>,
    onSubmit: stored.onSubmit === true,
    onApprove: stored.onApprove === true,
  };
}

/** Only what is switched on is written: a feed that asks for nothing keeps no `acknowledgements` key. */
function acknowledgementsConfig(form: AcknowledgementsForm): Entry | undefined {
  const networks = Object.fromEntries(
    ACKNOWLEDGEMENT_NETWORKS.filter((network) => form.networks[network]).map((network) => [network, true]),
  );
  const config: Entry = {
    ...(Object.keys(networks).length ? { networks } : {}),
    ...(form.onSubmit ? { onSubmit: true } : {}),
    ...(form.onApprove ? { onApprove: true } : {}),
  };
  return Object.keys(config).length ? config : undefined;
}

const writeSteps = (steps: StepForm[]) =>
  steps.map((step) => ({ ...step.base, plugin: step.plugin, config: step.config }));

function withSteps(entry: Entry, key: string, steps: StepForm[]): Entry {
  if (steps.length || Array.isArray(entry[key])) entry[key] = writeSteps(steps);
  return entry;
}

/** Keys the stored recap had are written back; keys it lacked only when the form gives them a value. */
function recapFromForm(recap: RecapForm): Entry {
  const next: Entry = { ...recap.base };
  const put = (key: string, value: unknown, given: boolean) => {
    if (given || key in recap.base) next[key] = value;
  };
  put("id", recap.id, recap.id !== "");
  put("name", recap.name, recap.name !== "");
  put("enabled", recap.enabled, !recap.enabled);
  put("schedule", recap.schedule, recap.schedule !== "");
  put("timezone", recap.timezone, recap.timezone !== "");
  if (next.name === "") delete next.name;
  if (next.timezone === "") delete next.timezone;
  withSteps(next, "transform", recap.transforms);
  withSteps(next, "batchTransform", recap.batchTransforms);
  withSteps(next, "distribute", recap.distributors);
  return next;
}

/** One recap stays one object (the config accepts either); otherwise a list. None: left out, unless it was a list. */
function recapsFromForm(stored: unknown, recaps: RecapForm[]): Entry | Entry[] | undefined {
  const written = recaps.map(recapFromForm);
  if (isEntry(stored) && written.length === 1) return written[0];
  if (written.length === 0 && !Array.isArray(stored)) return undefined;
  return written;
}

/** A recap's field errors, by `<index>.<field>` (schedule, timezone, id). */
export type RecapErrors = Record<string, string>;

/** A search's problem by `<source index>.<search index>`. */
export type SearchErrors = Record<string, string>;

/**
 * Searches with nothing to search for (no query, no address): an "Add Search" row left empty. Marked in place and
 * never saved, rather than stored as an empty search that runs for nothing.
 */
export function incompleteSearches(sources: SourceForm[]): SearchErrors | undefined {
  const errors: SearchErrors = {};
  sources.forEach((source, sourceIndex) => {
    source.search.forEach((search, searchIndex) => {
      const address = typeof search.base.url === "string" ? search.base.url.trim() : "";
      if (!search.query.trim() && !address) {
        errors[`${sourceIndex}.${searchIndex}`] = FEED_FORM_MESSAGES.searchQuery;
      }
    });
  });
  return Object.keys(errors).length ? errors : undefined;
}

export interface FormErrors {
  searches?: SearchErrors;
  name?: string;
  description?: string;
  pollingIntervalMs?: string;
  undoWindowSeconds?: string;
  decideWithinHours?: string;
  governance?: GovernanceErrors;
  recaps?: RecapErrors;
}

/** A recap's schedule, timezone and id, as the feed config's contract checks them. */
export function recapErrors(recaps: RecapForm[]): RecapErrors | undefined {
  const errors: RecapErrors = {};
  const seen = new Set<string>();
  recaps.forEach((recap, index) => {
    const id = recap.id.trim();
    if (!id) errors[`${index}.id`] = "A recap id is required";
    else if (!/^[a-z0-9][a-z0-9_-]*$/.test(id)) errors[`${index}.id`] = "Lower-case letters, digits, - and _";
    else if (seen.has(id)) errors[`${index}.id`] = `Two recaps share the id "${id}"`;
    seen.add(id);
    const problem = scheduleProblem(recap.schedule);
    if (problem) errors[`${index}.schedule`] = problem;
    if (recap.timezone.trim() && !isValidTimezone(recap.timezone.trim())) {
      errors[`${index}.timezone`] = TIMEZONE_MESSAGE;
    }
  });
  return Object.keys(errors).length ? errors : undefined;
}

/** The edit form's rules: what must be filled in, and in which shape, before a save is sent. */
export function validateForm(form: FeedForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.name.trim()) errors.name = FEED_FORM_MESSAGES.nameRequired;
  if (!form.description.trim()) errors.description = FEED_FORM_MESSAGES.descriptionRequired;
  const polling = pollingIntervalOf(form.pollingIntervalMs);
  if (polling !== undefined && (!Number.isInteger(polling) || polling < MIN_POLLING_INTERVAL_MS)) {
    errors.pollingIntervalMs = FEED_FORM_MESSAGES.pollingInterval;
  } else if (polling !== undefined && polling > MAX_POLLING_INTERVAL_MS) {
    errors.pollingIntervalMs = FEED_FORM_MESSAGES.pollingIntervalTooLong;
  }
  const undoWindow = form.undoWindowSeconds.trim();
  if (undoWindow !== "" && !(/^\d+$/.test(undoWindow) && Number(undoWindow) <= MAX_UNDO_WINDOW_SECONDS)) {
    errors.undoWindowSeconds = FEED_FORM_MESSAGES.undoWindow;
  }
  const decideWithin = form.decideWithinHours.trim();
  if (
    decideWithin !== "" &&
    !(
      /^\d+$/.test(decideWithin) &&
      Number(decideWithin) >= MIN_DECIDE_WITHIN_HOURS &&
      Number(decideWithin) <= MAX_DECIDE_WITHIN_HOURS
    )
  ) {
    errors.decideWithinHours = DECIDE_WITHIN_MESSAGE;
  }
  const governance = governanceErrors(form.governance);
  if (governance) errors.governance = governance;
  const searches = incompleteSearches(form.sources);
  if (searches) errors.searches = searches;
  const recaps = recapErrors(form.recaps);
  if (recaps) errors.recaps = recaps;
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
