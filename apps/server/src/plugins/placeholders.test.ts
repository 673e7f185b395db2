import { secretField } from "@curate/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hydrateSecrets, placeholdersIn, secretSource } from "./placeholders.ts";

const schema = z.object({
  token: secretField("t"),
  url: z.string(),
  webhook: secretField("w", { feedOnly: true }).optional(),
  keys: z.array(z.object({ key: secretField("k") })).optional(),
});

describe("hydrateSecrets", () => {
  it("fills secret fields only, never a placeholder elsewhere, and leaves the stored config alone", () => {
    const config = {
      token: "{{BOT_TOKEN}}",
      url: "https://x.example/{{BOT_TOKEN}}",
      keys: [{ key: "{{K2}}" }],
    };
    const filled = hydrateSecrets(config, schema, secretSource({ BOT_TOKEN: "secret-1", K2: "secret-2" }));
    expect(filled).toEqual({
      token: "secret-1",
      url: "https://x.example/{{BOT_TOKEN}}",
      keys: [{ key: "secret-2" }],
    });
    expect(config.token).toBe("{{BOT_TOKEN}}");
  });

  it("prefers the feed's own secret, and fails naming a variable that is not set", () => {
    const source = secretSource({ BOT_TOKEN: "server" }, { BOT_TOKEN: "feed" });
    expect(hydrateSecrets({ token: "{{BOT_TOKEN}}", url: "" }, schema, source).token).toBe("feed");
    expect(() => hydrateSecrets({ token: "{{NOPE}}", url: "" }, schema, source)).toThrow(/NOPE is not set/);
  });

  it("fills a feed-only field from the feed's secrets, never from the server's", () => {
    const config = { token: "{{A}}", url: "", webhook: "{{HOOK}}" };
    expect(() => hydrateSecrets(config, schema, secretSource({ A: "a", HOOK: "operator-hook" }))).toThrow(
      /takes only a feed secret/,
    );
    expect(hydrateSecrets(config, schema, secretSource({ A: "a" }, { HOOK: "own-hook" })).webhook).toBe(
      "own-hook",
    );
  });

  it("lists the placeholder names a config's secret fields use", () => {
    expect(placeholdersIn({ token: "{{A}}", url: "{{B}}", keys: [{ key: "{{C}}" }] }, schema).sort()).toEqual(
      ["A", "C"],
    );
  });
});
