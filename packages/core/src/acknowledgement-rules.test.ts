import { describe, expect, it } from "vitest";
import { acknowledgementText, acknowledgementWanted } from "./acknowledgement-rules.ts";
import { feedConfigSchema } from "./feeds.ts";

const base = { id: "solar", name: "Solar", description: "About solar" };

describe("acknowledgements", () => {
  it("says exactly what happened, naming the feed", () => {
    expect(acknowledgementText("submitted", "solar")).toBe("Submitted to #solar");
    expect(acknowledgementText("approved", "solar")).toBe("Approved for #solar");
  });

  it("is wanted only where both the network and the occasion are switched on", () => {
    const config = { acknowledgements: { networks: { bluesky: true, twitter: false }, onSubmit: true } };
    expect(acknowledgementWanted(config, "bluesky", "submitted")).toBe(true);
    expect(acknowledgementWanted(config, "bluesky", "approved")).toBe(false);
    expect(acknowledgementWanted(config, "twitter", "submitted")).toBe(false);
    expect(acknowledgementWanted(config, "mastodon", "submitted")).toBe(false);
    expect(acknowledgementWanted(config, "rss", "submitted")).toBe(false);
    expect(acknowledgementWanted({}, "bluesky", "submitted")).toBe(false);
    expect(acknowledgementWanted(null, "bluesky", "submitted")).toBe(false);
  });

  it("takes only switches for the networks the bot answers on in a feed's config", () => {
    const parse = (acknowledgements: unknown) => feedConfigSchema.safeParse({ ...base, acknowledgements });
    expect(parse({ networks: { telegram: true }, onSubmit: true, onApprove: false }).success).toBe(true);
    expect(parse({ networks: { rss: true } }).success).toBe(false);
    expect(parse({ networks: { telegram: "yes" } }).success).toBe(false);
    expect(parse({ onSubmit: true, replyText: "Thanks!" }).success).toBe(false);
  });
});
