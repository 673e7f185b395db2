import { feedConfigFromDraft, feedDestinations } from "@curate/core";
import { describe, expect, it } from "vitest";
import { EMPTY_WIZARD_DRAFT, type WizardDraft } from "./draft-store";
import { leaveOutStep, restoreStep, wizardFeedConfig } from "./wizard-config";

const ORIGIN = "https://curate.example";
const draft: WizardDraft = {
  ...EMPTY_WIZARD_DRAFT,
  name: "Solar",
  description: "Solar news daily",
  id: "solar",
  telegram: { chatId: "@solar", messageThreadId: "" },
};

const plugins = (config: ReturnType<typeof wizardFeedConfig>) => ({
  transform: config.outputs?.stream?.transform?.map((step) => step.plugin),
  distribute: config.outputs?.stream?.distribute?.map((step) => step.plugin),
});

describe("wizardFeedConfig", () => {
  it("is core's config when nothing is left out", () => {
    expect(wizardFeedConfig(draft, ORIGIN)).toEqual(feedConfigFromDraft(draft, ORIGIN));
  });

  it("leaves out the steps named in the draft", () => {
    expect(plugins(wizardFeedConfig(leaveOutStep(draft, "ai-transform"), ORIGIN))).toEqual({
      transform: ["@curate/object-transform"],
      distribute: ["@curate/rss", "@curate/telegram"],
    });
    expect(plugins(wizardFeedConfig(leaveOutStep(draft, "rss"), ORIGIN)).distribute).toEqual([
      "@curate/telegram",
    ]);
  });
});

describe("the review's destinations", () => {
  it("are where the feed's posts can be read: its own RSS file, not the service's root, and its chat", () => {
    const config = wizardFeedConfig(draft, ORIGIN);
    expect(feedDestinations(config.outputs?.stream?.distribute, config.id)).toEqual([
      { kind: "rss", label: "RSS", href: `${ORIGIN}/rss/solar/rss.xml` },
      { kind: "telegram", label: "Telegram", href: "https://t.me/solar" },
    ]);
  });
});

describe("leaveOutStep", () => {
  it("switches Telegram off instead of naming it, and names a step once", () => {
    expect(leaveOutStep(draft, "telegram")).toEqual({ ...draft, telegram: null });
    const twice = leaveOutStep(leaveOutStep(draft, "ai-transform"), "ai-transform");
    expect(twice.leftOut).toEqual(["ai-transform"]);
    expect(restoreStep(twice, "ai-transform").leftOut).toEqual([]);
  });
});
