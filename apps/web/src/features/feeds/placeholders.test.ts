import { defaultStreamTransforms, EMPTY_FEED_DRAFT, feedConfigFromDraft } from "@curate/core";
import { describe, expect, it } from "vitest";
import { unfillablePlaceholders, unfillableText, withoutStep } from "./placeholders";

const wizardConfig = feedConfigFromDraft(
  { ...EMPTY_FEED_DRAFT, name: "Solar", description: "Solar news", id: "solar" },
  "https://curate.example",
);

describe("unfillablePlaceholders", () => {
  it("names each step whose secret the server cannot fill, with where the step sits", () => {
    expect(unfillablePlaceholders(wizardConfig, [])).toEqual([
      {
        name: "AI_API_KEY",
        stepPath: "outputs.stream.transform.1",
        plugin: "ai-transform",
        label: "AI transform",
      },
    ]);
    // The built-in RSS service needs no secret, and the wizard gives it none.
    expect(JSON.stringify(wizardConfig)).not.toContain("RSS_SERVICE_SECRET");
  });

  it("is empty when the server fills every name, or the stream has no built-in secrets", () => {
    expect(unfillablePlaceholders(wizardConfig, ["AI_API_KEY"])).toEqual([]);
    expect(unfillablePlaceholders({ outputs: { stream: { enabled: false } } }, [])).toEqual([]);
    expect(unfillablePlaceholders(null, [])).toEqual([]);
  });

  it("reads configs typed by hand: entries that are not steps keep the indices of the others", () => {
    const config = {
      outputs: {
        stream: {
          transform: [
            "junk",
            { plugin: 7 },
            { plugin: "@curatedotfun/ai-transform", config: { apiKey: "{{ KEY }}" } },
          ],
          distribute: [{ plugin: "@curate/rss", transform: [null, defaultStreamTransforms()[1]] }],
        },
      },
    };
    expect(unfillablePlaceholders(config, []).map((p) => [p.name, p.stepPath])).toEqual([
      ["KEY", "outputs.stream.transform.2"],
      ["AI_API_KEY", "outputs.stream.distribute.0.transform.1"],
    ]);
  });
});

describe("unfillableText", () => {
  it("says which step fails and why", () => {
    expect(unfillableText({ name: "AI_API_KEY", label: "AI transform" })).toBe(
      "This server has no value for {{AI_API_KEY}}: the AI transform step will fail on every job until the operator sets it.",
    );
  });
});

describe("withoutStep", () => {
  it("drops the step at the path and leaves the rest of the config as it was", () => {
    const next = withoutStep(wizardConfig, "outputs.stream.transform.1");
    expect(next.outputs?.stream?.transform?.map((step) => step.plugin)).toEqual(["@curate/object-transform"]);
    expect(next.outputs?.stream?.distribute).toBe(wizardConfig.outputs?.stream?.distribute);
    expect(wizardConfig.outputs?.stream?.transform).toHaveLength(2);
    const nested = withoutStep(wizardConfig, "outputs.stream.distribute.0.transform.0");
    expect(nested.outputs?.stream?.distribute?.[0].transform).toEqual([]);
  });

  it("changes nothing for a path that is not there", () => {
    expect(withoutStep(wizardConfig, "outputs.stream.transform.5")).toEqual(wizardConfig);
    expect(withoutStep({ a: 1 }, "outputs.stream.transform.0")).toEqual({ a: 1 });
  });
});
