import type { Feed, FeedConfig } from "@curate/core";
import { useEffect, useReducer } from "react";
import { toast } from "#web/components/ui/toast";
import { fieldIssues, useUpdateFeed } from "#web/features/feeds/mutations";
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

  // Every edit bumps the count, which restarts the timer; a sync or a view switch sets it to 0 and cancels it.
  useEffect(() => {
    if (state.pendingFormEdits === 0) return;
    const timer = setTimeout(() => dispatch({ type: "formSynced" }), FORM_SYNC_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.pendingFormEdits]);

  function switchView(view: EditorView) {
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
    update.mutate(check.config as FeedConfig, {
      onSuccess: () => {
        dispatch({ type: "saved" });
        toast.success("Success", { description: "Feed configuration updated successfully." });
      },
      onError: (error) => {
        dispatch({ type: "saveFailed", issues: fieldIssues(error) });
        toast.error("Update Failed", {
          description: error.message || "Could not update feed configuration.",
        });
      },
    });
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
    editForm: (change: (form: FeedForm) => FeedForm) => dispatch({ type: "formChanged", change }),
    editJson: (text: string) => dispatch({ type: "jsonTextChanged", text }),
    switchView,
    changeImage,
    save,
  };
}
