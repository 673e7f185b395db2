import { describe, expect, it } from "vitest";
import { pluginCreateSchema, pluginFormErrors } from "./plugin-registry.ts";

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
