import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  aiTransformConfigSchema,
  objectTransformConfigSchema,
  placeholderName,
  secretField,
  secretPaths,
  streamPlaceholders,
} from "./plugin-configs.ts";

describe("secret fields", () => {
  it("accept only a {{NAME}} placeholder", () => {
    const field = secretField("A token");
    expect(field.safeParse("{{BOT_TOKEN}}").success).toBe(true);
    expect(field.safeParse(" {{ BOT_TOKEN }} ").success).toBe(true);
    for (const raw of ["123456:abcdef", "{{lower}}", "x{{BOT_TOKEN}}", "{{BOT_TOKEN}}x", ""]) {
      expect(field.safeParse(raw).success, raw).toBe(false);
    }
  });

  it("are found by path through objects, arrays and optional wrappers", () => {
    const schema = z.object({
      token: secretField("t"),
      auth: z.object({ header: secretField("h").optional(), user: z.string() }).optional(),
      targets: z.array(z.object({ key: secretField("k") })).default([]),
      plain: z.string(),
    });
    expect(secretPaths(schema)).toEqual(["token", "auth.header", "targets.*.key"]);
    expect(secretPaths(aiTransformConfigSchema)).toEqual(["apiKey"]);
  });

  it("reads a placeholder's variable name", () => {
    expect(placeholderName("{{AI_API_KEY}}")).toBe("AI_API_KEY");
    expect(placeholderName("{{ai}}")).toBeNull();
    expect(placeholderName(42)).toBeNull();
  });
});

describe("object-transform config", () => {
  it("takes nested templates and refuses nesting deeper than the limit", () => {
    expect(
      objectTransformConfigSchema.safeParse({
        mappings: { title: "{{title}}", author: { name: "{{author}}" }, tags: ["a", "{{feed}}"], n: 3 },
      }).success,
    ).toBe(true);
    let deep: unknown = "{{x}}";
    for (let i = 0; i < 20; i++) deep = { d: deep };
    expect(objectTransformConfigSchema.safeParse({ mappings: { deep } }).success).toBe(false);
  });
});

describe("streamPlaceholders", () => {
  it("lists the placeholders of built-in steps' required secret fields, with where they sit", async () => {
    const { builtinPluginName } = await import("./plugins.ts");
    const { defaultStreamTransforms } = await import("./feed-draft.ts");
    const uses = streamPlaceholders(
      {
        transform: defaultStreamTransforms(),
        distribute: [
          {
            plugin: "@curate/rss",
            config: { apiSecret: "{{RSS_SERVICE_SECRET}}", serviceUrl: "{{NOT_SECRET}}" },
          },
        ],
      },
      builtinPluginName,
    );
    // The RSS service's secret is optional (the built-in service needs none), so it is not a name the stream needs.
    expect(uses).toEqual([{ path: "outputs.stream.transform.1.config.apiKey", name: "AI_API_KEY" }]);
  });
});
