import { describe, expect, it } from "vitest";
import {
  PLUGIN_NAME_MESSAGES,
  pluginCreateSchema,
  pluginFormErrors,
  pluginNameProblem,
  pluginNoticeMessage,
} from "./plugin-registry.ts";

const good = {
  name: "@acme/x",
  repoUrl: "https://github.com/acme/x",
  type: "transformer",
  entryPoint: "https://cdn.acme.test/x.js",
  schemaDefinition: "",
};

describe("plugin form rules", () => {
  it("accepts a complete form, with or without a schema definition", () => {
    expect(pluginFormErrors(good, "create")).toEqual({});
    expect(pluginFormErrors({ ...good, schemaDefinition: '{"type":"object"}' }, "edit")).toEqual({});
  });

  it("names every problem with the create form's messages", () => {
    expect(
      pluginFormErrors(
        { name: "", repoUrl: "x", type: "", entryPoint: "x", schemaDefinition: "{" },
        "create",
      ),
    ).toEqual({
      name: "Plugin name is required",
      repoUrl: "Must be a valid repository URL (e.g., GitHub, GitLab)",
      type: "Plugin type is required",
      entryPoint: "Entry point must be a valid URL (e.g., https://example.com/remoteEntry.js)",
      schemaDefinition: "Invalid JSON for Schema Definition",
    });
  });

  it("uses the edit form's messages, and does not ask for a type there", () => {
    expect(
      pluginFormErrors(
        { name: " ", repoUrl: "ftp://x", type: "", entryPoint: "", schemaDefinition: "[]" },
        "edit",
      ),
    ).toEqual({
      name: "Name is required",
      repoUrl: "Must be a valid repository URL",
      entryPoint: "Entry point must be a valid URL",
      schemaDefinition: "Invalid JSON for Schema Definition",
    });
  });

  it("agrees with the API contract on the same input", () => {
    const parsed = pluginCreateSchema.safeParse({ ...good, schemaDefinition: "{bad" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(["Invalid JSON for Schema Definition"]);
  });
});

describe("the plugin name rule", () => {
  it("accepts @scope/name in lower case", () => {
    for (const name of ["@alice/thing", "@acme-labs/summary.v2", "@a/b_c", "@x9/rss"]) {
      expect(pluginNameProblem(name), name).toBeNull();
    }
  });

  it("leaves built-in names, their aliases and short names to the built-ins", () => {
    expect(pluginNameProblem("webhook")).toBe(PLUGIN_NAME_MESSAGES.builtin("webhook", "@curate/webhook"));
    expect(pluginNameProblem("@curate/webhook")).toBe(
      PLUGIN_NAME_MESSAGES.builtin("@curate/webhook", "@curate/webhook"),
    );
    expect(pluginNameProblem("RSS")).toBe(PLUGIN_NAME_MESSAGES.builtin("RSS", "@curate/rss"));
    expect(pluginNameProblem("twitter")).toBe(PLUGIN_NAME_MESSAGES.builtin("twitter", "@curate/x-source"));
  });

  it("reserves the curate scopes, and names each other mistake", () => {
    expect(pluginNameProblem("@curatedotfun/x")).toBe(PLUGIN_NAME_MESSAGES.reservedScope("curatedotfun"));
    expect(pluginNameProblem("@curate/anything")).toBe(PLUGIN_NAME_MESSAGES.reservedScope("curate"));
    expect(pluginNameProblem("Foo")).toBe(PLUGIN_NAME_MESSAGES.lowerCase);
    expect(pluginNameProblem("@Bad/x")).toBe(PLUGIN_NAME_MESSAGES.lowerCase);
    for (const name of ["thing", "@alice", "@alice/", "@/x", "@-a/x", "@a/-x", "@a.b/x", "@a/b/c", "@a/é"]) {
      expect(pluginNameProblem(name), name).toBe(PLUGIN_NAME_MESSAGES.form);
    }
    expect(pluginNameProblem(`@${"a".repeat(40)}/x`)).toBe(PLUGIN_NAME_MESSAGES.form);
    expect(pluginNameProblem(`@a/${"b".repeat(98)}`)).toBe(PLUGIN_NAME_MESSAGES.tooLong);
  });

  it("is the same rule in the form and in the API contract", () => {
    expect(pluginFormErrors({ ...good, name: "webhook" }, "create").name).toBe(pluginNameProblem("webhook"));
    const parsed = pluginCreateSchema.safeParse({ ...good, name: "@Bad/x", schemaDefinition: undefined });
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ["name"], message: PLUGIN_NAME_MESSAGES.lowerCase }),
    ]);
    // A name registered before the rule stays editable.
    expect(pluginFormErrors({ ...good, name: "legacy" }, "edit")).toEqual({});
  });
});

describe("plugin notices", () => {
  it("tell a plugin's owner its new name and which feeds follow it", () => {
    expect(
      pluginNoticeMessage({
        kind: "plugin_renamed",
        oldName: "webhook",
        newName: "@mallory-near/webhook",
        feedIds: ["hooked"],
      }),
    ).toBe(
      'Your plugin "webhook" is now "@mallory-near/webhook": registered plugins are named @scope/name, and short or built-in names always mean Curate\'s built-in plugins. Feeds that named it now name "@mallory-near/webhook": "hooked".',
    );
  });

  it("tell a feed's owner what their feed runs, and the built-in's name when that is what they meant", () => {
    expect(
      pluginNoticeMessage({
        kind: "feed_plugin_renamed",
        oldName: "webhook",
        newName: "@mallory-near/webhook",
        feedIds: ["hooked", "news"],
      }),
    ).toBe(
      'Your feeds "hooked", "news" named the registered plugin "webhook", now renamed "@mallory-near/webhook"; the config was changed to keep running it. If you meant Curate\'s built-in Webhook plugin, name "@curate/webhook" instead.',
    );
  });
});
