import { DECIDE_WITHIN_MESSAGE } from "@curate/core";
import { describe, expect, it } from "vitest";
import {
  configFromForm,
  formFromConfig,
  newRecapForm,
  parseConfigJson,
  parseStepConfig,
  splitHandles,
  validateForm,
} from "./form-model";

const stored = {
  id: "solar",
  name: "Solar",
  description: "Solar news",
  enabled: true,
  pollingIntervalMs: 60000,
  admins: ["alice.near"],
  sources: [
    {
      plugin: "@curatedotfun/twitter-source",
      config: { region: "eu" },
      search: [{ searchId: "s1", type: "twitter-mention", query: "#solar", pageSize: 100 }],
    },
  ],
  outputs: {
    stream: {
      enabled: true,
      transform: [{ plugin: "@curate/object-transform", config: { mappings: { a: "b" } } }],
      distribute: [
        {
          plugin: "@curatedotfun/rss",
          config: { serviceUrl: "https://x/rss" },
          transform: [{ plugin: "t" }],
        },
      ],
    },
    recap: [{ id: "weekly" }],
  },
  moderation: { approvers: { twitter: ["kim"], discord: ["lee"] }, blacklist: { twitter: [] } },
  ingestion: { enabled: true, schedule: "*/5 * * * *" },
};

describe("form ↔ config", () => {
  it("round-trips a config unchanged when the form is not edited", () => {
    expect(configFromForm(stored, formFromConfig(stored))).toEqual(stored);
  });

  it("writes form edits into the config and keeps everything the form does not show", () => {
    const form = formFromConfig(stored);
    form.name = "Solar Plus";
    form.pollingIntervalMs = "";
    form.sources[0].search[0].query = "#solar OR #pv";
    form.distributors[0].config = { serviceUrl: "https://y/rss" };
    form.approvers.twitter = " kim, , Ann ,";
    form.approvers.bluesky = "amy.bsky.social";
    form.blacklist.mastodon = "spam@bad.host, ";
    const config = configFromForm(stored, form);
    expect(config.name).toBe("Solar Plus");
    expect(config).not.toHaveProperty("pollingIntervalMs");
    expect(config.sources).toEqual([
      {
        plugin: "@curatedotfun/twitter-source",
        config: { region: "eu" },
        search: [{ searchId: "s1", type: "twitter-mention", query: "#solar OR #pv", pageSize: 100 }],
      },
    ]);
    expect(config.outputs).toMatchObject({
      recap: [{ id: "weekly" }],
      stream: {
        distribute: [
          {
            plugin: "@curatedotfun/rss",
            config: { serviceUrl: "https://y/rss" },
            transform: [{ plugin: "t" }],
          },
        ],
      },
    });
    expect(config.moderation).toEqual({
      approvers: { twitter: ["kim", "Ann"], discord: ["lee"], bluesky: ["amy.bsky.social"] },
      blacklist: { twitter: [], mastodon: ["spam@bad.host"] },
    });
    expect(config.ingestion).toEqual(stored.ingestion);
  });

  it("removes list entries the form removed", () => {
    const form = formFromConfig(stored);
    form.sources = [];
    form.distributors = [];
    const config = configFromForm(stored, form) as typeof stored;
    expect(config.sources).toEqual([]);
    expect(config.outputs.stream.distribute).toEqual([]);
  });

  it("gives empty values for no config and defaults the stream to off", () => {
    const form = formFromConfig(null);
    expect(form).toMatchObject({ name: "", enabled: true, streamEnabled: false, sources: [] });
    expect(form.approvers).toEqual({ twitter: "", bluesky: "", mastodon: "", telegram: "" });
  });
});

describe("naming moderators in the public log", () => {
  it("is on unless the feed turned it off, and only turning it off writes the key", () => {
    const form = formFromConfig(stored);
    expect(form.nameRejectersInLog).toBe(true);
    expect(configFromForm(stored, form).moderation).not.toHaveProperty("nameRejectersInLog");

    form.nameRejectersInLog = false;
    const anonymous = configFromForm(stored, form);
    expect(anonymous.moderation).toMatchObject({
      nameRejectersInLog: false,
      approvers: { twitter: ["kim"] },
    });
    expect(formFromConfig(anonymous).nameRejectersInLog).toBe(false);

    const named = formFromConfig(anonymous);
    named.nameRejectersInLog = true;
    expect(configFromForm(anonymous, named).moderation).toMatchObject({ nameRejectersInLog: true });
  });
});

describe("the queue's service level in the form", () => {
  it("reads and writes whole hours, drops the key when empty, and names a bad value with the contract's words", () => {
    const form = formFromConfig(stored);
    expect(form.decideWithinHours).toBe("");
    expect(configFromForm(stored, form).moderation).not.toHaveProperty("decideWithinHours");

    form.decideWithinHours = "6";
    const withLevel = configFromForm(stored, form);
    expect(withLevel.moderation).toMatchObject({ decideWithinHours: 6 });
    expect(formFromConfig(withLevel).decideWithinHours).toBe("6");
    expect(validateForm(form).decideWithinHours).toBeUndefined();

    for (const bad of ["0", "721", "1.5", "six"]) {
      expect(validateForm({ ...form, decideWithinHours: bad }).decideWithinHours, bad).toBe(
        DECIDE_WITHIN_MESSAGE,
      );
    }
  });
});

describe("acknowledgements in the form", () => {
  it("reads them off by default, writes only what is switched on, and drops the key when nothing is", () => {
    const form = formFromConfig(stored);
    expect(form.acknowledgements).toEqual({
      networks: { twitter: false, bluesky: false, mastodon: false, telegram: false },
      onSubmit: false,
      onApprove: false,
    });
    form.acknowledgements = {
      ...form.acknowledgements,
      networks: { ...form.acknowledgements.networks, bluesky: true, telegram: true },
      onApprove: true,
    };
    const config = configFromForm(stored, form);
    expect(config.acknowledgements).toEqual({ networks: { bluesky: true, telegram: true }, onApprove: true });
    expect(formFromConfig(config).acknowledgements.networks.telegram).toBe(true);

    const off = formFromConfig(config);
    off.acknowledgements = formFromConfig(null).acknowledgements;
    expect(configFromForm(config, off)).not.toHaveProperty("acknowledgements");
  });
});

describe("validateForm", () => {
  it("requires name and description and a polling interval of at least 1000 ms when given", () => {
    const form = formFromConfig({ name: " ", description: "", pollingIntervalMs: 999 });
    expect(validateForm(form)).toEqual({
      name: "Feed name is required",
      description: "Description is required",
      pollingIntervalMs: "Polling interval must be a whole number of at least 1000 ms",
    });
    expect(validateForm({ ...form, name: "a", description: "b", pollingIntervalMs: "" })).toEqual({});
  });
});

describe("recaps in the form", () => {
  const weekly = {
    id: "weekly",
    name: "Weekly",
    enabled: true,
    schedule: "0 9 * * 1",
    timezone: "Europe/Berlin",
    transform: [{ plugin: "@curate/simple-transform", config: { template: "- {{content}}" } }],
    batchTransform: [{ plugin: "@curate/ai-transform", config: { prompt: "Summarise the week" } }],
    distribute: [
      { plugin: "@curate/telegram", config: { channelId: "@news" }, transform: [{ plugin: "t" }] },
    ],
    extra: "kept",
  };
  const withRecap = (recap: unknown) => ({ ...stored, outputs: { stream: { enabled: false }, recap } });

  it("round-trips one recap as one object and a list as a list", () => {
    for (const config of [
      withRecap(weekly),
      withRecap([weekly, { ...weekly, id: "daily" }]),
      withRecap([]),
    ]) {
      expect(configFromForm(config, formFromConfig(config))).toEqual(config);
    }
    const form = formFromConfig(withRecap(weekly));
    expect(form.recaps[0]).toMatchObject({
      id: "weekly",
      schedule: "0 9 * * 1",
      timezone: "Europe/Berlin",
      transforms: [{ plugin: "@curate/simple-transform" }],
      batchTransforms: [{ plugin: "@curate/ai-transform" }],
      distributors: [{ plugin: "@curate/telegram" }],
    });
  });

  it("adds and removes recaps: a second one makes a list, none removes the key", () => {
    const config = withRecap(weekly);
    const form = formFromConfig(config);
    const added = { ...form, recaps: [...form.recaps, newRecapForm(form.recaps, "UTC")] };
    const two = configFromForm(config, added).outputs as Record<string, unknown>;
    expect(two.recap).toEqual([
      weekly,
      { enabled: true, id: "recap-2", name: "Recap 2", schedule: "0 9 * * 1", timezone: "UTC" },
    ]);
    const none = configFromForm(config, { ...form, recaps: [] }).outputs as Record<string, unknown>;
    expect(none).not.toHaveProperty("recap");
    expect(newRecapForm([], "Europe/Paris")).toMatchObject({ id: "weekly", timezone: "Europe/Paris" });
  });

  it("names a bad schedule, timezone or id by the recap's position", () => {
    const form = formFromConfig(withRecap([weekly, { ...weekly, schedule: "nope", timezone: "Mars/Base" }]));
    expect(validateForm(form).recaps).toEqual({
      "1.id": 'Two recaps share the id "weekly"',
      "1.schedule": expect.stringMatching(/^Not a valid cron schedule/),
      "1.timezone": "Unknown timezone: use an IANA name such as UTC or Europe/Berlin",
    });
    expect(validateForm(formFromConfig(withRecap(weekly))).recaps).toBeUndefined();
  });
});

describe("JSON text", () => {
  it("treats empty text as valid and reports the parse message otherwise", () => {
    expect(parseConfigJson("  ")).toEqual({ ok: true, config: null });
    expect(parseConfigJson('{"a":1}')).toEqual({ ok: true, config: { a: 1 } });
    const bad = parseConfigJson("{ nope");
    expect(bad.ok).toBe(false);
    expect(parseConfigJson("[1]")).toEqual({ ok: false, message: "The configuration must be a JSON object" });
  });

  it("commits a step config only when it is a JSON object", () => {
    expect(parseStepConfig('{"x": 1}')).toEqual({ x: 1 });
    expect(parseStepConfig("")).toEqual({});
    expect(parseStepConfig("[]")).toBeNull();
    expect(parseStepConfig("{")).toBeNull();
  });

  it("splits handle lists on commas, trimmed, without empties", () => {
    expect(splitHandles(" a, b ,, c,")).toEqual(["a", "b", "c"]);
  });
});
