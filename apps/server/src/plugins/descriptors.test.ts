import { BUILTIN_CONFIG_SCHEMAS, DISTRIBUTORS, referenceNoun } from "@curate/core";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/index.ts";
import type { Fediverse } from "../fediverse/federation.ts";
import { builtinPlugins } from "./registry.ts";

// Building the plugins reads no settings' services: nothing here is called.
const plugins = builtinPlugins({
  db: {} as Database,
  publicUrl: "https://curate.example",
  aiBaseUrl: "https://ai.example",
  aiDefaultModel: "model",
  aiCallsPerFeedPerHour: 1,
  telegramApiRoot: "https://telegram.example",
  discordApiBaseUrl: "https://discord.example",
  notionApiBaseUrl: "https://notion.example",
  nearRpcUrls: { mainnet: "https://rpc.example", testnet: "https://rpc.example" },
  crosspostApiUrl: "https://crosspost.example",
  privateHostsAllowed: [],
  mail: { kind: "off" },
  fediverse: {} as Fediverse,
});

describe("the distributor descriptors", () => {
  it("has a core descriptor and config schema for every registered distributor, and no descriptor without one", async () => {
    const loaded = await Promise.all(
      plugins.map(async (entry) => {
        const plugin = "load" in entry ? await entry.load() : entry;
        // The name a loader is registered by is the name of the plugin it loads.
        expect(plugin.name).toBe(entry.name);
        return plugin;
      }),
    );
    const registered = loaded.filter((plugin) => plugin.type === "distributor").map((plugin) => plugin.name);
    expect(registered.sort()).toEqual(Object.keys(DISTRIBUTORS).sort());
    for (const name of registered) expect(BUILTIN_CONFIG_SCHEMAS[name], name).toBeDefined();
  });

  it("names what each send makes, one noun per reference kind, and says what a retraction does", () => {
    const kinds = Object.values(DISTRIBUTORS).flatMap((descriptor) => Object.keys(descriptor.references));
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const kind of kinds) expect(referenceNoun(kind), kind).toMatch(/^[a-z]+$/);
    expect(referenceNoun("no-such-kind")).toBeNull();
    for (const [name, descriptor] of Object.entries(DISTRIBUTORS)) {
      expect(descriptor.retraction, name).toMatch(/^[A-Z].*\.$/);
    }
  });
});
