import { type Feed, type FeedConfig, replannedMessage } from "@curate/core";
import { useEffect, useReducer, useState } from "react";
import { toast } from "#web/components/ui/toast";
import type { WorkingConfig } from "#web/features/dry-runs/components/ConfigTestBench";
import { describeIssue } from "#web/features/feeds/field-labels";
import { fieldIssues, useUpdateFeed } from "#web/features/feeds/mutations";
import { ApiError } from "#web/lib/api";
import {
  canChangeImage,
  canRemoveStep,
  canSwitchView,
  checkSave,
  type EditorView,
  editorReducer,
  FORM_SYNC_DELAY_MS,
  initialEditorState,
} from "./editor-state";
import { type FeedForm, validateForm } from "./form-model";

const INVALID_JSON = "Please check your JSON syntax and try again.";

/**
 * The edit page's working copy of a feed: the editor-state machine plus what it cannot do itself (the 300 ms
 * form debounce, the spec's toasts and the save request). Mount it per feed (key by id) to start over.
 */
export function useFeedEditor(feed: Feed) {
  const [state, dispatch] = useReducer(editorReducer, feed, initialEditorState);
  const update = useUpdateFeed(feed.id);
  // The version this editor last loaded or saved, sent as the save's precondition.
  const [version, setVersion] = useState(feed.updatedAt);
  // The config as last saved, to tell whether there is anything to lose.
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(state.config));
  const dirty =
    state.pendingFormEdits > 0 || state.jsonError !== null || JSON.stringify(state.config) !== savedJson;

  // Every edit bumps the count, which restarts the timer; a sync or a view switch sets it to 0 and cancels it.
  useEffect(() => {
    if (state.pendingFormEdits === 0) return;
    const timer = setTimeout(() => dispatch({ type: "formSynced" }), FORM_SYNC_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.pendingFormEdits]);

  function switchView(view: EditorView) {
    // The tab switches on press, before the focused field's blur would commit it: commit it first.
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    if (!canSwitchView(state, view)) {
      // Radix asks for the tab on press and again on focus; one id keeps that to one toast.
      toast.error("Invalid JSON", { id: "invalid-json", description: INVALID_JSON });
      return;
    }
    dispatch({ type: "viewSwitched", view });
  }

  function changeImage(url: string, reason: "uploaded" | "removed") {
    if (!canChangeImage(state)) {
      console.error(
        "The image URL could not be written into the JSON config: it does not parse.",
        state.jsonError,
      );
      toast.error("Error", {
        description: "Failed to update JSON configuration. Please check the console for details.",
      });
      return;
    }
    dispatch({ type: "imageChanged", url });
    if (reason === "uploaded") {
      toast.success("Image Updated", { description: "Image URL has been updated in the JSON config." });
    }
  }

  function save() {
    const unparsed = document.querySelector<HTMLElement>('[data-step-config][aria-invalid="true"]');
    if (unparsed) {
      toast.error("Invalid JSON", { description: INVALID_JSON });
      unparsed.focus();
      return;
    }
    const check = checkSave(state);
    if (check.kind === "invalid-json") {
      toast.error("Invalid JSON", { description: INVALID_JSON });
      return;
    }
    if (check.kind === "empty") {
      toast.error("Error", { description: "No configuration to save." });
      return;
    }
    dispatch({ type: "saveRequested", check });
    if (!check.valid) return;
    const config = check.config as FeedConfig;
    update.mutate(
      { config, version },
      {
        onSuccess: (saved) => {
          setVersion(saved.updatedAt);
          setSavedJson(JSON.stringify(config));
          dispatch({ type: "saved" });
          const replanned = replannedMessage(saved.scheduleReplanned);
          toast.success("Success", {
            description: `Feed configuration updated successfully.${replanned ? ` ${replanned}` : ""}`,
          });
        },
        onError: (error) => {
          const issues = fieldIssues(error);
          dispatch({ type: "saveFailed", issues });
          // The issues are listed on the page in words; the toast does not repeat the server's raw summary.
          toast.error("Update Failed", {
            description: issues.length
              ? `${issues.map(describeIssue).slice(0, 2).join("; ")}${issues.length > 2 ? "; …" : ""}`
              : readableError(error) || "Could not update feed configuration.",
          });
        },
      },
    );
  }

  return {
    view: state.view,
    form: state.form,
    formGeneration: state.formGeneration,
    jsonText: state.jsonText,
    jsonError: state.jsonError,
    issues: state.issues,
    errors: state.showErrors ? validateForm(state.form) : {},
    image: typeof state.config?.image === "string" ? state.config.image : "",
    /** The working config as last synced from the form or parsed from the JSON. */
    config: state.config,
    canRemoveStep: canRemoveStep(state),
    removeStep: (stepPath: string) => dispatch({ type: "stepRemoved", stepPath }),
    saving: update.isPending,
    /** Edits not saved yet: the page marks them and asks before leaving. */
    dirty,
    /** The working config for "Test this config": the form or JSON as it is now, or why it cannot run. */
    workingConfig: (): WorkingConfig => {
      const check = checkSave(state);
      if (check.kind === "invalid-json") return { problem: `Invalid JSON: ${INVALID_JSON}` };
      if (check.kind === "empty") return { problem: "No configuration to test." };
      if (!check.valid) {
        return { problem: "The configuration has problems:", issues: check.issues };
      }
      return { config: check.config as FeedConfig };
    },
    editForm: (change: (form: FeedForm) => FeedForm) => dispatch({ type: "formChanged", change }),
    editJson: (text: string) => dispatch({ type: "jsonTextChanged", text }),
    switchView,
    changeImage,
    save,
  };
}

/** The server's own message without the transport prefix ("API request failed: 409 …"). */
function readableError(error: Error): string {
  if (error instanceof ApiError) {
    const message = (error.body as { error?: { message?: unknown } } | null)?.error?.message;
    if (typeof message === "string" && message) return message;
  }
  return error.message;
}
