import { describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS, builtinPluginName, canonicalPluginName, findBuiltinPlugin } from "./plugins.ts";

describe("the built-in plugin table", () => {
  it("knows each built-in by its own name and its @curatedotfun alias", () => {
    expect(builtinPluginName("@curate/rss")).toBe("rss");
    expect(builtinPluginName("@curatedotfun/rss")).toBe("rss");
    expect(builtinPluginName("@CurateDotFun/Telegram ")).toBe("telegram");
    expect(findBuiltinPlugin("@curate/ai-transform")?.type).toBe("transformer");
  });

  it("knows the short names existing configs use for the X source", () => {
    for (const alias of ["twitter", "x", "@curatedotfun/twitter-source", "@curatedotfun/twitter"]) {
      expect(builtinPluginName(alias), alias).toBe("x-source");
    }
    expect(builtinPluginName("test")).toBe("test-source");
  });

  it("keeps every short name for the built-ins, whatever a registry holds", () => {
    expect(builtinPluginName("rss")).toBe("rss");
    expect(builtinPluginName("Webhook")).toBe("webhook");
    expect(canonicalPluginName(" telegram ")).toBe("@curate/telegram");
    expect(builtinPluginName("rss-source")).toBe("rss-source");
  });

  it("leaves third-party plugins alone", () => {
    expect(builtinPluginName("@someone/rss")).toBeNull();
    expect(builtinPluginName("@curate/not-a-builtin")).toBeNull();
    expect(canonicalPluginName("@someone/rss")).toBe("@someone/rss");
  });

  it("stores built-ins under @curate/<name>", () => {
    expect(canonicalPluginName("@curatedotfun/object-transform")).toBe("@curate/object-transform");
    expect(canonicalPluginName("twitter")).toBe("@curate/x-source");
  });

  it("has one entry per name and no alias shared by two plugins", () => {
    const names = BUILTIN_PLUGINS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    const aliases = BUILTIN_PLUGINS.flatMap((p) => ("aliases" in p ? [...p.aliases] : []));
    expect(new Set([...names, ...aliases]).size).toBe(names.length + aliases.length);
  });
});
