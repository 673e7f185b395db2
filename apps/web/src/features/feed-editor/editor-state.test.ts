import { DECIDE_WITHIN_MESSAGE, type FeedConfig } from "@curate/core";
import { describe, expect, it } from "vitest";
import { describeIssue } from "#web/features/feeds/field-labels";
import {
  canChangeImage,
  canRemoveStep,
  canSwitchView,
  checkSave,
  type EditorAction,
  type EditorState,
  editorReducer,
  FORM_SYNC_DELAY_MS,
  initialEditorState,
} from "./editor-state";
import { type FeedForm, validateForm } from "./form-model";

const config: FeedConfig = {
  id: "solar",
  name: "Solar",
  description: "Solar news",
  enabled: true,
  pollingIntervalMs: 60000,
  sources: [{ plugin: "@curate/x-source", search: [{ type: "twitter-mention", query: "#solar" }] }],
  outputs: {
    stream: { enabled: true, distribute: [{ plugin: "@curate/rss", config: { serviceUrl: "x" } }] },
  },
  moderation: { approvers: { twitter: ["kim"] } },
  ingestion: { enabled: true, schedule: "*/5 * * * *" },
};

const start = () => initialEditorState({ id: "solar", config });
const run = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(editorReducer, state);
const edit = (patch: Partial<FeedForm>): EditorAction => ({
  type: "formChanged",
  change: (form) => ({ ...form, ...patch }),
});
const json = (state: EditorState) => JSON.parse(state.jsonText) as Record<string, unknown>;

describe("feed editor state", () => {
  it("starts in the form view with the stored config as the working copy and as JSON", () => {
    const state = start();
    expect(state.view).toBe("form");
    expect(state.config).toEqual(config);
    expect(state.form.name).toBe("Solar");
    expect(json(state)).toEqual(config);
    expect(state).toMatchObject({ jsonError: null, showErrors: false, issues: [], pendingFormEdits: 0 });
  });

  describe("form edits (debounced 300 ms by the hook)", () => {
    it("wait in the form until the sync, which writes all of them into the config and the JSON at once", () => {
      expect(FORM_SYNC_DELAY_MS).toBe(300);
      const edited = run(
        start(),
        edit({ name: "Solar Plus" }),
        edit({ approvers: { twitter: "kim, ann", bluesky: "", mastodon: "", telegram: "" } }),
      );
      expect(edited.form.name).toBe("Solar Plus");
      expect(edited.pendingFormEdits).toBe(2);
      expect(edited.config?.name).toBe("Solar");
      expect(json(edited).name).toBe("Solar");

      const synced = editorReducer(edited, { type: "formSynced" });
      expect(synced.pendingFormEdits).toBe(0);
      expect(synced.config).toMatchObject({
        name: "Solar Plus",
        moderation: { approvers: { twitter: ["kim", "ann"] } },
      });
      expect(json(synced)).toEqual(synced.config);
    });

    it("keep the RSS distributor's title and description in step with the feed's, as the wizard does", () => {
      const rss = (title: string, description: string, plugin = "@curatedotfun/rss") => ({
        plugin,
        config: {
          serviceUrl: "https://h/rss",
          feedConfig: { title, description, siteUrl: "https://h/feed/solar" },
        },
      });
      const custom = rss("Solar, by hand", "Solar news", "@curate/rss");
      const state = initialEditorState({
        id: "solar",
        config: {
          ...config,
          outputs: { stream: { enabled: true, distribute: [rss("Solar", "Solar news"), custom] } },
        },
      });
      // Typed one key at a time: each step follows the last.
      const renamed = run(
        state,
        edit({ name: "Solar " }),
        edit({ name: "Solar Daily" }),
        edit({ description: "Sun" }),
        {
          type: "formSynced",
        },
      );
      const [wizardLike, handWritten] =
        (renamed.config?.outputs as FeedConfig["outputs"])?.stream?.distribute ?? [];
      expect(wizardLike?.config).toEqual({
        serviceUrl: "https://h/rss",
        feedConfig: { title: "Solar Daily", description: "Sun", siteUrl: "https://h/feed/solar" },
      });
      // A title written differently on purpose stays; its description was still the feed's, so it follows.
      expect(handWritten?.config?.feedConfig).toEqual({
        title: "Solar, by hand",
        description: "Sun",
        siteUrl: "https://h/feed/solar",
      });
      expect(renamed.form.distributors[0]?.config).toEqual(wizardLike?.config);
    });

    it("keep what the form does not show and ignore a sync with nothing pending", () => {
      const synced = run(start(), edit({ pollingIntervalMs: "" }), { type: "formSynced" });
      expect(synced.config).not.toHaveProperty("pollingIntervalMs");
      expect(synced.config?.ingestion).toEqual(config.ingestion);
      expect(editorReducer(synced, { type: "formSynced" })).toBe(synced);
    });
  });

  describe("switching views", () => {
    it("to JSON shows the latest form edits at once and ends the pending sync", () => {
      const state = run(start(), edit({ description: "Sun and panels" }), {
        type: "viewSwitched",
        view: "json",
      });
      expect(state.view).toBe("json");
      expect(state.pendingFormEdits).toBe(0);
      expect(json(state).description).toBe("Sun and panels");
      expect(state.config?.description).toBe("Sun and panels");
    });

    it("back to the form reloads the form from the JSON's config and starts its fields over", () => {
      const inJson = run(start(), { type: "viewSwitched", view: "json" });
      const text = JSON.stringify({
        ...config,
        name: "Typed in JSON",
        outputs: { stream: { enabled: false } },
      });
      const state = run(inJson, { type: "jsonTextChanged", text }, { type: "viewSwitched", view: "form" });
      expect(state.view).toBe("form");
      expect(state.config?.name).toBe("Typed in JSON");
      expect(state.form).toMatchObject({ name: "Typed in JSON", streamEnabled: false, distributors: [] });
      expect(state.formGeneration).toBe(inJson.formGeneration + 1);
    });

    it("to the view already shown changes nothing", () => {
      const state = start();
      expect(canSwitchView(state, "form")).toBe(true);
      expect(editorReducer(state, { type: "viewSwitched", view: "form" })).toBe(state);
    });
  });

  describe("invalid JSON", () => {
    const broken = () =>
      run(start(), { type: "viewSwitched", view: "json" }, { type: "jsonTextChanged", text: '{ "name": ' });

    it("shows the parse message and keeps the last good config", () => {
      const state = broken();
      expect(state.jsonText).toBe('{ "name": ');
      expect(state.jsonError).toEqual(expect.any(String));
      expect(state.jsonError).not.toBe("");
      expect(state.config).toEqual(config);
    });

    it("blocks the switch back to the form, the image and the save until it parses again", () => {
      const state = broken();
      expect(canSwitchView(state, "form")).toBe(false);
      expect(editorReducer(state, { type: "viewSwitched", view: "form" })).toBe(state);
      expect(canChangeImage(state)).toBe(false);
      expect(editorReducer(state, { type: "imageChanged", url: "https://img.example/a.png" })).toBe(state);
      expect(checkSave(state)).toEqual({ kind: "invalid-json" });

      const fixed = editorReducer(state, { type: "jsonTextChanged", text: JSON.stringify(config) });
      expect(fixed.jsonError).toBeNull();
      expect(canSwitchView(fixed, "form")).toBe(true);
    });

    it("refuses JSON that parses but is not an object", () => {
      const state = run(
        start(),
        { type: "viewSwitched", view: "json" },
        { type: "jsonTextChanged", text: "[1]" },
      );
      expect(state.jsonError).toBe("The configuration must be a JSON object");
    });

    it("except empty text, which is valid and leaves nothing to save", () => {
      const state = run(
        start(),
        { type: "viewSwitched", view: "json" },
        { type: "jsonTextChanged", text: "  " },
      );
      expect(state.jsonError).toBeNull();
      expect(state.config).toBeNull();
      expect(checkSave(state)).toEqual({ kind: "empty" });
    });
  });

  it("writes a new image into the config and the JSON, starting a config with the feed id when there is none", () => {
    const state = run(start(), { type: "imageChanged", url: "https://img.example/a.png" });
    expect(state.config?.image).toBe("https://img.example/a.png");
    expect(json(state).image).toBe("https://img.example/a.png");

    const empty = run(
      start(),
      { type: "viewSwitched", view: "json" },
      { type: "jsonTextChanged", text: "" },
      { type: "imageChanged", url: "https://img.example/b.png" },
    );
    expect(empty.config).toEqual({ id: "solar", image: "https://img.example/b.png" });
  });

  describe("removing a step (the unfillable-placeholder warning)", () => {
    it("drops it from the config, the JSON and the form, keeping the form's pending edits", () => {
      const state = run(start(), edit({ name: "Solar Plus" }), {
        type: "stepRemoved",
        stepPath: "outputs.stream.distribute.0",
      });
      expect(state.config?.name).toBe("Solar Plus");
      expect(state.config?.outputs).toEqual({ stream: { enabled: true, distribute: [] } });
      expect(json(state).outputs).toEqual({ stream: { enabled: true, distribute: [] } });
      expect(state.form.distributors).toEqual([]);
      expect(state).toMatchObject({ pendingFormEdits: 0, formGeneration: 1 });
    });

    it("waits while the JSON being edited does not parse", () => {
      const broken = run(
        start(),
        { type: "viewSwitched", view: "json" },
        { type: "jsonTextChanged", text: "{" },
      );
      expect(canRemoveStep(broken)).toBe(false);
      expect(editorReducer(broken, { type: "stepRemoved", stepPath: "outputs.stream.distribute.0" })).toBe(
        broken,
      );
    });
  });

  describe("saving", () => {
    it("syncs the form first and sends the config when the form rules and the schema pass", () => {
      const state = run(start(), edit({ name: "Solar Plus" }));
      const check = checkSave(state);
      expect(check).toMatchObject({ kind: "checked", valid: true, issues: [] });
      if (check.kind !== "checked") throw new Error("unreachable");
      expect(check.config.name).toBe("Solar Plus");

      const saving = editorReducer(state, { type: "saveRequested", check });
      expect(saving).toMatchObject({ showErrors: true, pendingFormEdits: 0, issues: [] });
      expect(json(saving).name).toBe("Solar Plus");
    });

    it("shows the field errors and the schema's issues instead of sending an invalid config, each rule once", () => {
      const state = run(start(), edit({ name: " ", description: "", pollingIntervalMs: "500" }));
      const check = checkSave(state);
      if (check.kind !== "checked") throw new Error("expected a checked config");
      expect(check.valid).toBe(false);
      // The form and the schema check the same rules in the same words: one issue each, said as the field says it.
      expect(check.issues).toEqual([
        { path: "name", message: "Feed name is required" },
        { path: "description", message: "Description is required" },
        { path: "pollingIntervalMs", message: "Polling interval must be a whole number of at least 1000 ms" },
      ]);
      expect(check.issues.map(describeIssue)).toEqual(check.issues.map((issue) => issue.message));

      const shown = editorReducer(state, { type: "saveRequested", check });
      expect(shown.showErrors).toBe(true);
      expect(shown.issues).toEqual(check.issues);
    });

    it("says a bad service level once, in the contract's words", () => {
      const check = checkSave(run(start(), edit({ decideWithinHours: "0" })));
      if (check.kind !== "checked") throw new Error("expected a checked config");
      expect(check.valid).toBe(false);
      expect(check.issues).toEqual([
        { path: "moderation.decideWithinHours", message: DECIDE_WITHIN_MESSAGE },
      ]);
    });

    it("marks a search row left empty and does not save it", () => {
      const state = run(
        start(),
        edit({
          sources: [
            {
              base: config.sources?.[0] ?? {},
              plugin: "@curate/x-source",
              search: [
                { base: {}, type: "twitter-mention", query: "#solar" },
                { base: {}, type: "", query: "" },
                { base: {}, type: "twitter-search", query: "  " },
              ],
            },
          ],
        }),
      );
      const check = checkSave(state);
      if (check.kind !== "checked") throw new Error("expected a checked config");
      expect(check.valid).toBe(false);
      expect(check.issues).toEqual([
        { path: "sources.0.search.1.query", message: "Enter a query for this search, or remove it" },
        { path: "sources.0.search.2.query", message: "Enter a query for this search, or remove it" },
      ]);
      expect(validateForm(state.form).searches).toEqual({
        "0.1": "Enter a query for this search, or remove it",
        "0.2": "Enter a query for this search, or remove it",
      });
    });

    it("clears the issues once saved and shows the server's on a refusal", () => {
      const refused = editorReducer(start(), {
        type: "saveFailed",
        issues: [{ path: "sources.0.plugin", message: "Unknown plugin" }],
      });
      expect(refused.issues).toHaveLength(1);
      expect(editorReducer(refused, { type: "saved" }).issues).toEqual([]);
    });
  });
});
