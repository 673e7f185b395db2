import { builtinPluginName, type FeedConfig, feedConfigFromDraft } from "@curate/core";
import type { WizardDraft } from "./draft-store";

const leftOutBy = (draft: WizardDraft) => (step: { plugin: string }) =>
  !draft.leftOut.includes(builtinPluginName(step.plugin) ?? step.plugin);

/** The config Create Feed sends: core's config for the draft, without the steps the user left out. */
export function wizardFeedConfig(draft: WizardDraft, origin: string): FeedConfig {
  const config = feedConfigFromDraft(draft, origin);
  const stream = config.outputs?.stream;
  if (!stream || draft.leftOut.length === 0) return config;
  const keep = leftOutBy(draft);
  return {
    ...config,
    outputs: {
      ...config.outputs,
      stream: {
        ...stream,
        transform: stream.transform?.filter(keep),
        distribute: stream.distribute?.filter(keep),
      },
    },
  };
}

/**
 * The draft without a built-in step (by short name). Telegram has its own switch in Curation Settings, so
 * leaving it out turns that off; the other steps are derived by core and are left out by name.
 */
export function leaveOutStep(draft: WizardDraft, plugin: string): WizardDraft {
  if (plugin === "telegram") return { ...draft, telegram: null };
  return draft.leftOut.includes(plugin) ? draft : { ...draft, leftOut: [...draft.leftOut, plugin] };
}

/** Puts a left-out step back. */
export function restoreStep(draft: WizardDraft, plugin: string): WizardDraft {
  return { ...draft, leftOut: draft.leftOut.filter((name) => name !== plugin) };
}
