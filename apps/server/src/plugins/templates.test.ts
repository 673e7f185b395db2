import { describe, expect, it } from "vitest";
import { renderText, renderValue } from "./templates.ts";

const input = {
  title: "Tom & Jerry <b>",
  count: 3,
  tags: ["a", "b"],
  author: { name: "amy", links: ["https://x.com/amy"] },
  at: "2026-11-24T09:08:07.000Z",
  empty: "",
};

describe("{{path}} templates", () => {
  it("keeps a lone marker's type and writes markers inside text as text", () => {
    expect(renderValue("{{count}}", input)).toBe(3);
    expect(renderValue("{{tags}}", input)).toEqual(["a", "b"]);
    expect(renderValue("{{author.links.0}}", input)).toBe("https://x.com/amy");
    expect(renderValue("{{count}} items by {{author.name}}", input)).toBe("3 items by amy");
    expect(renderText("{{author}}", input)).toBe('{"name":"amy","links":["https://x.com/amy"]}');
  });

  it("builds nested objects and arrays of templates", () => {
    expect(renderValue({ a: ["{{title}}", { b: "{{count}}" }], c: 1, d: null }, input)).toEqual({
      a: ["Tom & Jerry <b>", { b: 3 }],
      c: 1,
      d: null,
    });
  });

  it("escapes nothing: the output is data for the next step", () => {
    expect(renderText("<p>{{title}}</p>", input)).toBe("<p>Tom & Jerry <b></p>");
  });

  it("leaves missing values empty (null when alone) and never reads prototype properties", () => {
    expect(renderText("[{{missing}}]", input)).toBe("[]");
    expect(renderValue("{{missing.deeper}}", input)).toBeNull();
    expect(renderValue("{{title.length}}", input)).toBeNull();
    expect(renderValue("{{constructor}}", input)).toBeNull();
    expect(renderText("{{AI_API_KEY}}", input)).toBe("");
  });

  it("applies filters: dates, case, default, truncate, join, json", () => {
    expect(renderText("{{at | date}} {{at | time}}", input)).toBe("2026-11-24 09:08:07");
    expect(renderValue("{{at | datetime}}", input)).toBe("2026-11-24T09:08:07.000Z");
    expect(renderText("{{author.name | upper}}", input)).toBe("AMY");
    expect(renderText('{{empty | default:"none"}}', input)).toBe("none");
    expect(renderText("{{title | truncate:9}}", input)).toBe("Tom &…");
    expect(renderText('{{tags | join:" / "}}', input)).toBe("a / b");
    // A quoted argument may hold a line break (a recap's Markdown list, one item per line).
    expect(renderText('{{tags | join:"\n"}}', input)).toBe("a\nb");
    expect(renderValue("{{tags | json}}", input)).toBe('["a","b"]');
    expect(renderValue("{{today}}", {})).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
