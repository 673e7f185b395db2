import { type Feed, feedConfigSchema } from "@curate/core";
import type { FieldIssue } from "#web/features/feeds/mutations";
import { withoutStep } from "#web/features/feeds/placeholders";
import {
  configFromForm,
  configToJson,
  type FeedForm,
  type FormErrors,
  formFromConfig,
  parseConfigJson,
  validateForm,
  type WorkingConfig,
  withRssTextInStep,
} from "./form-model";
import type { GovernanceForm } from "./governance-form";

/**
 * The edit page's state machine: one working config, shown either as the form or as JSON
 * text, kept in sync. Pure, so every transition is tested without React or timers; use-feed-editor.ts runs the
 * debounce, the toasts and the save request around it.
 */

/** Form edits reach the working config (and the JSON) this long after the last keystroke. */
export const FORM_SYNC_DELAY_MS = 300;

export type EditorView = "form" | "json";

export interface EditorState {
  /** The feed being edited; an image set on an empty config starts a config with this id. */
  feedId: string;
  view: EditorView;
  /** What Save sends: the config as last synced from the form or parsed from the JSON. */
  config: WorkingConfig | null;
  form: FeedForm;
  /** Changes whenever the form is reloaded from the config, so fields that keep their own text start over. */
  formGeneration: number;
  /** Form edits not yet written into the config; while above 0 the debounce is running. */
  pendingFormEdits: number;
  jsonText: string;
  /** The parse message while the JSON text is not a config object; null whenever it is. */
  jsonError: string | null;
  /** Field errors are shown from the first save on. */
  showErrors: boolean;
  /** What the schema check or the server refused at the last save. */
  issues: FieldIssue[];
}

/** The outcome of checking the current state for a save; only a checked config is sent. */
export type SaveCheck =
  | { kind: "invalid-json" }
  | { kind: "empty" }
  | { kind: "checked"; config: WorkingConfig; issues: FieldIssue[]; valid: boolean };

export type EditorAction =
  /** A form edit; `change` maps the current form to the next (pure, it may run twice in strict mode). */
  | { type: "formChanged"; change: (form: FeedForm) => FeedForm }
  /** The debounce after the last form edit elapsed. */
  | { type: "formSynced" }
  | { type: "jsonTextChanged"; text: string }
  | { type: "viewSwitched"; view: EditorView }
  | { type: "imageChanged"; url: string }
  /** A stream step dropped by its path in the config (`outputs.stream.transform.1`). */
  | { type: "stepRemoved"; stepPath: string }
  | { type: "saveRequested"; check: Extract<SaveCheck, { kind: "checked" }> }
  | { type: "saved" }
  | { type: "saveFailed"; issues: FieldIssue[] };

export function initialEditorState(feed: Pick<Feed, "id" | "config">): EditorState {
  return {
    feedId: feed.id,
    view: "form",
    config: { ...feed.config },
    form: formFromConfig(feed.config),
    formGeneration: 0,
    pendingFormEdits: 0,
    jsonText: configToJson(feed.config),
    jsonError: null,
    showErrors: false,
    issues: [],
  };
}

/**
 * Leaving the JSON view needs text that parses (empty counts): otherwise the form could not show it. Switching
 * to the view already shown is a no-op, never blocked.
 */
export function canSwitchView(state: EditorState, view: EditorView): boolean {
  return !(view === "form" && state.view === "json" && !parseConfigJson(state.jsonText).ok);
}

/** A new image is written into the config, so it waits while the JSON being edited does not parse. */
export function canChangeImage(state: EditorState): boolean {
  return !(state.view === "json" && state.jsonError !== null);
}

/** Removing a step rewrites the config the same way, so it waits for the same reason. */
export const canRemoveStep = canChangeImage;

function schemaIssues(config: WorkingConfig): FieldIssue[] {
  const result = feedConfigSchema.safeParse(config);
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

/**
 * The form's own findings as issues of the config, for the summary of problems: in the same words as beside their
 * fields, and said once where the schema finds the same (recaps show theirs in their own section).
 */
function formIssues(errors: FormErrors): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (errors.name) issues.push({ path: "name", message: errors.name });
  if (errors.description) issues.push({ path: "description", message: errors.description });
  if (errors.pollingIntervalMs) issues.push({ path: "pollingIntervalMs", message: errors.pollingIntervalMs });
  if (errors.undoWindowSeconds) {
    issues.push({ path: "moderation.undoWindowSeconds", message: errors.undoWindowSeconds });
  }
  if (errors.decideWithinHours) {
    issues.push({ path: "moderation.decideWithinHours", message: errors.decideWithinHours });
  }
  for (const [field, message] of Object.entries(errors.governance ?? {})) {
    issues.push({ path: governancePath(field as keyof GovernanceForm), message });
  }
  for (const [at, message] of Object.entries(errors.searches ?? {})) {
    const [source, search] = at.split(".");
    issues.push({ path: `sources.${source}.search.${search}.query`, message });
  }
  return issues;
}

/** Where a governance field lives in the config, as the schema's issues name it. */
function governancePath(field: keyof GovernanceForm): string {
  if (field === "quorumApprovals") return "moderation.quorum.approvals";
  if (field === "rejection") return "moderation.quorum.rejection";
  if (field === "pinnedTrusted") return "moderation.trust.pinned.trusted";
  if (field === "pinnedUntrusted") return "moderation.trust.pinned.untrusted";
  return `moderation.trust.${field}`;
}

/** Issues in order, each path and message once. */
function uniqueIssues(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What Save would send from this state, checked by the edit form's rules and the feed config schema. */
export function checkSave(state: EditorState): SaveCheck {
  let config: WorkingConfig | null;
  if (state.view === "form") {
    config = configFromForm(state.config, state.form);
  } else {
    const parsed = parseConfigJson(state.jsonText);
    if (!parsed.ok) return { kind: "invalid-json" };
    config = parsed.config;
  }
  if (!config) return { kind: "empty" };
  const formErrors = validateForm(formFromConfig(config));
  const issues = uniqueIssues([...formIssues(formErrors), ...schemaIssues(config)]);
  return {
    kind: "checked",
    config,
    issues,
    valid: issues.length === 0 && !Object.values(formErrors).some(Boolean),
  };
}

/** Writes the form into the working config and the JSON text; any pending debounced sync is then moot. */
function syncForm(state: EditorState): EditorState {
  const config = configFromForm(state.config, state.form);
  return { ...state, config, jsonText: configToJson(config), jsonError: null, pendingFormEdits: 0 };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "formChanged":
      return {
        ...state,
        form: withRssTextInStep(state.form, action.change(state.form)),
        pendingFormEdits: state.pendingFormEdits + 1,
      };

    case "formSynced":
      return state.pendingFormEdits === 0 ? state : syncForm(state);

    case "jsonTextChanged": {
      const parsed = parseConfigJson(action.text);
      return parsed.ok
        ? { ...state, jsonText: action.text, config: parsed.config, jsonError: null }
        : { ...state, jsonText: action.text, jsonError: parsed.message };
    }

    case "viewSwitched": {
      if (action.view === state.view) return state;
      // To JSON: the text must show the latest form edits at once, without waiting for the debounce.
      if (action.view === "json") return { ...syncForm(state), view: "json" };
      const parsed = parseConfigJson(state.jsonText);
      if (!parsed.ok) return state;
      return {
        ...state,
        view: "form",
        config: parsed.config,
        form: formFromConfig(parsed.config),
        formGeneration: state.formGeneration + 1,
        pendingFormEdits: 0,
      };
    }

    case "imageChanged": {
      if (!canChangeImage(state)) return state;
      const config = { ...(state.config ?? { id: state.feedId }), image: action.url };
      return { ...state, config, jsonText: configToJson(config) };
    }

    case "stepRemoved": {
      if (!canRemoveStep(state)) return state;
      // The form's latest edits go in first, and the form is then reloaded from the result, as after a JSON edit.
      const synced = state.view === "form" ? syncForm(state) : state;
      const config = withoutStep(synced.config, action.stepPath);
      return {
        ...synced,
        config,
        jsonText: configToJson(config),
        jsonError: null,
        form: formFromConfig(config),
        formGeneration: synced.formGeneration + 1,
      };
    }

    case "saveRequested": {
      // The form view saves what it shows, so its edits are synced first, as the debounce would have.
      const synced = state.view === "form" ? syncForm(state) : state;
      return { ...synced, showErrors: true, issues: action.check.issues };
    }

    case "saved":
      return { ...state, issues: [] };

    case "saveFailed":
      return { ...state, issues: action.issues };
  }
}
