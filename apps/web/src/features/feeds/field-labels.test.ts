import { describe, expect, it } from "vitest";
import { describeIssue, fieldLabel } from "./field-labels";

describe("field issues people can read", () => {
  it("names config paths in words, counting from 1", () => {
    expect(fieldLabel("outputs.stream.transform.2.plugin")).toBe("Stream transform 3: plugin name");
    expect(fieldLabel("outputs.stream.distribute.0.transform.1.config")).toBe(
      "Distributor 1: transform 2, config",
    );
    expect(fieldLabel("sources.0.search.1.pageSize")).toBe("Source 1: search 2, page size");
    expect(fieldLabel("moderation.approvers.twitter.3")).toBe("Twitter approvers entry 4");
    expect(fieldLabel("pollingIntervalMs")).toBe("Polling interval");
    expect(fieldLabel("outputs.recap.1.schedule")).toBe("Recap 2: schedule");
    expect(fieldLabel("outputs.recap.timezone")).toBe("Recap: timezone");
    expect(fieldLabel("outputs.recap.0.id")).toBe("Recap 1: ID");
    expect(fieldLabel("outputs.recap.0.batchTransform.0.plugin")).toBe(
      "Recap 1: batch transform 1, plugin name",
    );
    expect(fieldLabel("id")).toBe("Hashtag");
  });

  it("never shows the validator's own wording", () => {
    expect(
      describeIssue({
        path: "outputs.stream.transform.2.plugin",
        message: "Too small: expected string to have >=1 characters",
      }),
    ).toBe("Stream transform 3: plugin name is required");
    expect(describeIssue({ path: "", message: "At most 20 platforms" })).toBe("At most 20 platforms");
  });
});
