import { describe, expect, it } from "vitest";
import { hasChanges, outputDiff } from "./diff";
import { channelKind, discordText, notionValue, telegramRuns } from "./render";

describe("reading rendered requests as their channels show them", () => {
  it("turns Telegram's HTML into runs of visible text, entities decoded and unknown markup kept as text", () => {
    expect(telegramRuns("<b>Solar &amp; wind</b>\n\nPanels &lt;cheaper&gt;", "HTML")).toEqual([
      { text: "Solar & wind", bold: true },
      { text: "\n\nPanels <cheaper>" },
    ]);
    expect(telegramRuns('<a href="https://x.com/a">link</a>', "HTML")).toEqual([
      { text: "link", href: "https://x.com/a" },
    ]);
  });

  it("reads MarkdownV2 escapes and emphasis, and plain text as it is", () => {
    expect(telegramRuns("*Title\\.*\n\nBody \\(1\\)", "MarkdownV2")).toEqual([
      { text: "Title.", bold: true },
      { text: "\n\nBody (1)" },
    ]);
    expect(telegramRuns("<b>as written</b>")).toEqual([{ text: "<b>as written</b>" }]);
  });

  it("unescapes Discord markdown, reads Notion values and names each channel's view", () => {
    expect(discordText("Solar \\(20%\\) \\*cheaper\\*")).toBe("Solar (20%) *cheaper*");
    expect(
      notionValue({ title: [{ type: "text", text: { content: "A" } }, { text: { content: "B" } }] }),
    ).toBe("AB");
    expect(notionValue({ multi_select: [{ name: "solar" }, { name: "energy" }] })).toBe("solar, energy");
    expect(notionValue({ checkbox: false })).toBe("No");
    expect(channelKind("@curate/telegram")).toBe("telegram");
    expect(channelKind("@curatedotfun/notion")).toBe("notion");
    expect(channelKind("@curate/near-social")).toBe("json");
  });
});

describe("diffing a step's previous and new output", () => {
  it("diffs text by words and objects by lines of JSON", () => {
    const text = outputDiff("Wind broke a record", "Wind broke a record (corrected)");
    expect(text.filter((p) => p.kind === "added").map((p) => p.value.trim())).toEqual(["(corrected)"]);
    const json = outputDiff({ title: "Old", link: "x" }, { link: "x", title: "New" });
    expect(json.filter((p) => p.kind === "removed").map((p) => p.value.trim())).toEqual(['"title": "Old"']);
    expect(json.filter((p) => p.kind === "added").map((p) => p.value.trim())).toEqual(['"title": "New"']);
    expect(hasChanges(outputDiff({ a: 1, b: 2 }, { b: 2, a: 1 }))).toBe(false);
  });
});
