import { existsSync } from "node:fs";
import { DISTRIBUTORS, type DistributorPluginName } from "@curate/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeCrosspost } from "../../../test/fakes/crosspost.ts";
import { startFakeDiscord } from "../../../test/fakes/discord.ts";
import { startFakeNotion } from "../../../test/fakes/notion.ts";
import { startFakeRssService } from "../../../test/fakes/rss-service.ts";
import type { ReceivedRequest } from "../../../test/fakes/server.ts";
import { startFakeSupabase } from "../../../test/fakes/supabase.ts";
import { startFakeTelegram } from "../../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../../test/fakes/webhook.ts";
import { nearSecretKey, newKey } from "../../../test/near.ts";
import { distributionContext, stepConfig } from "../../../test/plugins.ts";
import type { DistributorPlugin } from "../types.ts";
import { createCrosspostDistributor } from "./crosspost.ts";
import { createDiscordDistributor } from "./discord.ts";
import { createNotionDistributor } from "./notion.ts";
import { createRssDistributor } from "./rss.ts";
import { createSupabaseDistributor } from "./supabase.ts";
import { createTelegramDistributor } from "./telegram.ts";
import { createWebhookDistributor } from "./webhook.ts";

/**
 * The contract every distributor keeps, checked for each against a fake of its service: render is pure (the same
 * request twice, nothing sent), send returns a reference its core descriptor names, a replay renders
 * deterministically from the ledger's receipt — an edit exactly where the descriptor's `editsOnReplay` says — and a
 * retraction asked twice gives the same end, the one the descriptor's `retracts` names (a gone publication counts
 * as retracted; a channel that cannot delete says why, both times). The table is keyed by every distributor's
 * name: a new one does not compile until it has its case here, or the file that proves its contract on the database.
 */

interface Case {
  plugin: DistributorPlugin<unknown>;
  config: unknown;
  /** The fake's requests so far: render must add none. */
  requests: () => readonly ReceivedRequest[];
}

/** Or the test file (under apps/server/src) that proves the contract where the channel's state is in the database. */
type Contract = { run: () => Case } | { provedIn: string; because: string };

const TELEGRAM_TOKEN = "123456789:AAH-contract-test-token-for-fakes";
const BOT_TOKEN = "discord-bot-token-contract";
const CHANNEL = "1300000000000000333";
const NOTION_TOKEN = "ntn_contract_secret";
const DATABASE = "c7c1e2f4a9d84c3e8f2a61d0c5e7b913";
const SERVICE_KEY = "eyJhbGciOiJIUzI1NiJ9.service-role.contract";
const HOOK_SECRET = "whsec_contract";
const RSS_SECRET = "rss-contract-secret";
const signer = newKey();
const TARGET = { platform: "twitter", userId: "1500000000000000001" };

let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let notion: Awaited<ReturnType<typeof startFakeNotion>>;
let supabase: Awaited<ReturnType<typeof startFakeSupabase>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let rssService: Awaited<ReturnType<typeof startFakeRssService>>;
let crosspost: Awaited<ReturnType<typeof startFakeCrosspost>>;

beforeAll(async () => {
  [telegram, discord, notion, supabase, receiver, rssService, crosspost] = await Promise.all([
    startFakeTelegram({ token: TELEGRAM_TOKEN, chats: ["@contract_news"] }),
    startFakeDiscord({ botToken: BOT_TOKEN, channels: [CHANNEL] }),
    startFakeNotion({ token: NOTION_TOKEN, databases: [{ id: DATABASE, properties: { Name: "title" } }] }),
    startFakeSupabase({
      serviceKey: SERVICE_KEY,
      tables: [{ name: "posts", columns: ["id", "title", "curate_key"], unique: ["curate_key"] }],
    }),
    startWebhookReceiver(HOOK_SECRET),
    startFakeRssService(RSS_SECRET),
    startFakeCrosspost({
      accounts: { "curate.near": { keys: [signer.publicKey], targets: [TARGET] } },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all(
    [telegram, discord, notion, supabase, receiver, rssService, crosspost].map((fake) => fake?.close()),
  );
});

/** A built-in distributor as the registry holds it, its config checked and its secrets filled as the runner does. */
function caseOf<C>(
  plugin: DistributorPlugin<C>,
  config: unknown,
  secrets: Parameters<typeof stepConfig>[2],
  requests: () => readonly ReceivedRequest[],
): Case {
  return {
    plugin: plugin as DistributorPlugin<unknown>,
    config: stepConfig(plugin, config, secrets),
    requests,
  };
}

const CONTRACTS: { [Name in DistributorPluginName]: Contract } = {
  telegram: {
    run: () =>
      caseOf(
        createTelegramDistributor({ apiRoot: telegram.apiRoot }),
        { botToken: "{{TG}}", chatId: "@contract_news" },
        { server: { TG: TELEGRAM_TOKEN } },
        () => telegram.requests,
      ),
  },
  discord: {
    run: () =>
      caseOf(
        createDiscordDistributor({ apiBaseUrl: discord.apiBaseUrl }),
        { botToken: "{{BOT}}", channelId: CHANNEL },
        { server: { BOT: BOT_TOKEN } },
        () => discord.requests,
      ),
  },
  notion: {
    run: () =>
      caseOf(
        createNotionDistributor({ baseUrl: notion.baseUrl }),
        { token: "{{NOTION}}", databaseId: DATABASE, fields: { title: { type: "title", property: "Name" } } },
        { server: { NOTION: NOTION_TOKEN } },
        () => notion.requests,
      ),
  },
  supabase: {
    run: () =>
      caseOf(
        createSupabaseDistributor({ allowedHosts: ["127.0.0.1"] }),
        {
          url: supabase.url,
          key: "{{SB}}",
          table: "posts",
          columns: { title: "title" },
          idempotencyColumn: "curate_key",
        },
        { feed: { SB: SERVICE_KEY } },
        () => supabase.requests,
      ),
  },
  webhook: {
    run: () =>
      caseOf(
        createWebhookDistributor({ allowedHosts: ["127.0.0.1"] }),
        { url: receiver.url, secret: "{{HOOK}}" },
        { feed: { HOOK: HOOK_SECRET } },
        () => receiver.requests,
      ),
  },
  rss: {
    // An external RSS service (this deployment's own writes to the database: rss/routes.test.ts).
    run: () =>
      caseOf(
        createRssDistributor({
          db: {} as never,
          publicUrl: "http://127.0.0.1:3000",
          allowedHosts: ["127.0.0.1"],
        }),
        { serviceUrl: rssService.url, apiSecret: "{{RSS}}" },
        { feed: { RSS: RSS_SECRET } },
        () => rssService.requests,
      ),
  },
  crosspost: {
    run: () =>
      caseOf(
        createCrosspostDistributor({ apiUrl: crosspost.url }),
        { signerId: "curate.near", keyPair: "{{CROSSPOST_KEY}}", targets: [TARGET] },
        { server: { CROSSPOST_KEY: nearSecretKey(signer) } },
        () => crosspost.requests,
      ),
  },
  "near-social": {
    provedIn: "plugins/distributors/near-integration.test.ts",
    because: "a NEAR transaction is signed and sent to a fake RPC that checks it",
  },
  email: {
    provedIn: "email/email.test.ts",
    because: "the feed's subscribers and issues live in the database",
  },
  activitypub: {
    provedIn: "fediverse/federation.test.ts",
    because: "followers and notes live in the database and deliveries go to a second instance",
  },
};

/** Where this server's own RSS service is, as the cases' settings make it (their RSS case is an external one). */
const DESTINATIONS = { ownRssServiceUrl: "http://127.0.0.1:3000/rss" };

// As the runner hands a submission over: with its times (an item without one is stamped when it is rendered).
const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://example.com/solar",
  submittedAt: "2026-11-27T10:00:00.000Z",
};
const edited = { ...item, title: "Solar got cheaper (corrected)" };

describe.each(Object.entries(CONTRACTS) as Array<[DistributorPluginName, Contract]>)(
  "the %s distributor",
  (name, contract) => {
    if ("provedIn" in contract) {
      it(`keeps the contract in ${contract.provedIn}: ${contract.because}`, () => {
        expect(existsSync(new URL(`../../${contract.provedIn}`, import.meta.url))).toBe(true);
        expect(DISTRIBUTORS[name].references).not.toEqual({});
      });
      return;
    }

    it("renders purely, sends a described reference, replays deterministically and retracts to the same end twice", async () => {
      const { plugin, config, requests } = contract.run();
      const before = requests().length;
      const first = await plugin.render(item, config, distributionContext());
      const again = await plugin.render(item, config, distributionContext());
      expect(again).toEqual(first);
      expect(requests().length, "render sent nothing").toBe(before);

      const receipt = await plugin.send(first, config, distributionContext());
      const kind = receipt.reference?.kind;
      expect(kind, "send names what it made").toBeTypeOf("string");
      expect(Object.keys(DISTRIBUTORS[name].references)).toContain(kind);

      const replayContext = () =>
        distributionContext({
          jobId: "00000000-0000-4000-8000-000000000002",
          idempotencyKey: "b".repeat(64),
          replay: { jobId: "00000000-0000-4000-8000-000000000001", receipt },
        });
      const sent = requests().length;
      const replay = await plugin.render(edited, config, replayContext());
      expect(await plugin.render(edited, config, replayContext())).toEqual(replay);
      expect(requests().length, "a replay's render sent nothing").toBe(sent);
      const descriptor = DISTRIBUTORS[name];
      const described = config as Record<string, unknown>;
      expect(replay.edits === true, "a replay edits where the descriptor says it does, and only there").toBe(
        descriptor.editsOnReplay(described, DESTINATIONS),
      );

      const retract = plugin.retract;
      expect(retract, "every distributor says what a retraction does").toBeTypeOf("function");
      if (!retract) return;
      const once = await retract(receipt, config, distributionContext());
      const twice = await retract(receipt, config, distributionContext());
      expect(once.retracted, "a retraction takes back what the descriptor says it can").toBe(
        descriptor.retracts(described, DESTINATIONS),
      );
      expect(twice.retracted).toBe(once.retracted);
      if (!once.retracted) {
        expect(once).toMatchObject({ reason: expect.any(String) });
        expect(twice).toMatchObject({ reason: expect.any(String) });
      }
    });
  },
);
