import { describe, expect, it } from "vitest";
import {
  approversByPlatform,
  EMPTY_FEED_DRAFT,
  type FeedDraft,
  feedConfigFromDraft,
  normaliseHashtag,
} from "./feed-draft.ts";
import { feedConfigSchema } from "./feeds.ts";
import { PLUGINS } from "./plugins.ts";

const ORIGIN = "https://curate.example";
const draft = (overrides: Partial<FeedDraft> = {}): FeedDraft => ({
  ...EMPTY_FEED_DRAFT,
  name: "Solar Weekly",
  description: "The week's best solar energy news.",
  id: "solar",
  ...overrides,
});

describe("feedConfigFromDraft", () => {
  it("starts the stream enabled with the mapping and AI summarisation transforms", () => {
    const stream = feedConfigFromDraft(draft(), ORIGIN).outputs?.stream;
    expect(stream?.enabled).toBe(true);
    const [mapping, summary] = stream?.transform ?? [];
    expect(mapping.plugin).toBe(PLUGINS.objectTransform);
    expect(Object.keys((mapping.config as { mappings: object }).mappings)).toEqual([
      "notes",
      "author",
      "source",
      "content",
      "submittedAt",
    ]);
    expect(summary.plugin).toBe(PLUGINS.aiTransform);
    expect(summary.config).toMatchObject({ apiKey: "{{AI_API_KEY}}", prompt: expect.any(String) });
    expect(Object.keys((summary.config as { schema: object }).schema)).toEqual(["tags", "title", "summary"]);
  });

  it("adds the RSS distributor for the hashtag on this deployment's host", () => {
    const [rss, ...others] = feedConfigFromDraft(draft(), `${ORIGIN}/`).outputs?.stream?.distribute ?? [];
    expect(others).toEqual([]);
    expect(rss.plugin).toBe(PLUGINS.rss);
    expect(rss.config).toEqual({
      feedConfig: {
        title: "Solar Weekly",
        description: "The week's best solar energy news.",
        siteUrl: `${ORIGIN}/feed/solar`,
      },
      serviceUrl: `${ORIGIN}/rss`,
    });
    // The built-in service never reads a secret: the wizard writes none.
    expect(JSON.stringify(rss.config)).not.toContain("apiSecret");
    const [mapping] = rss.transform ?? [];
    expect(mapping.plugin).toBe(PLUGINS.objectTransform);
    expect((mapping.config as { mappings: { categories: string[] } }).mappings.categories).toEqual(["solar"]);
  });

  it("has no RSS distributor until there is a hashtag", () => {
    expect(feedConfigFromDraft(draft({ id: "" }), ORIGIN).outputs?.stream?.distribute).toEqual([]);
  });

  it("adds the Telegram distributor only while it is switched on", () => {
    const on = feedConfigFromDraft(
      draft({ telegram: { chatId: " @solar_news ", messageThreadId: "42" } }),
      ORIGIN,
    );
    expect(on.outputs?.stream?.distribute?.[1]).toEqual({
      plugin: PLUGINS.telegram,
      config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@solar_news", messageThreadId: "42" },
    });
    const noThread = feedConfigFromDraft(
      draft({ telegram: { chatId: "-1001", messageThreadId: " " } }),
      ORIGIN,
    );
    expect(noThread.outputs?.stream?.distribute?.[1].config).toEqual({
      botToken: "{{TELEGRAM_BOT_TOKEN}}",
      chatId: "-1001",
    });
    const off = feedConfigFromDraft(draft({ telegram: null }), ORIGIN);
    expect(off.outputs?.stream?.distribute?.map((d) => d.plugin)).toEqual([PLUGINS.rss]);
  });

  it("turns approvers into moderation.approvers keyed by the lower-cased platform, with the suggested undo window", () => {
    const config = feedConfigFromDraft(
      draft({
        approvers: [
          { handle: " @Alice ", platform: "Twitter" },
          { handle: "bob", platform: "Twitter" },
        ],
      }),
      ORIGIN,
    );
    expect(config.moderation).toEqual({ approvers: { twitter: ["Alice", "bob"] }, undoWindowSeconds: 10 });
  });

  it("gives a config the shared schema accepts, with the id lower-cased", () => {
    const config = feedConfigFromDraft(draft({ id: "#SolarNews", image: "" }), ORIGIN);
    expect(config.id).toBe("solarnews");
    expect(config.enabled).toBe(true);
    expect(feedConfigSchema.safeParse(config).success).toBe(true);
  });
});

describe("approversByPlatform", () => {
  it("drops empty handles and repeats", () => {
    expect(
      approversByPlatform([
        { handle: "  ", platform: "Twitter" },
        { handle: "kim", platform: "Twitter" },
        { handle: "@KIM", platform: "Twitter" },
      ]),
    ).toEqual({ twitter: ["kim"] });
  });
});

describe("normaliseHashtag", () => {
  it("lower-cases and strips the # and spaces", () => {
    expect(normaliseHashtag("#Climate Tech")).toBe("climatetech");
  });
});
