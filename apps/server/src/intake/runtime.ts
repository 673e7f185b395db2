import { builtinPluginName, isSourcePluginName, type SourcePluginName } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { BlueskyClient } from "../clients/bluesky.ts";
import { MastodonClient } from "../clients/mastodon.ts";
import { XApiClient } from "../clients/x-api.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { testPosts } from "../db/schema.ts";
import { queryRows, tryExclusive } from "../db/sql.ts";
import { BlueskyMentionSource, BlueskySearchSource } from "../sources/bluesky.ts";
import { MastodonMentionSource, MastodonSearchSource } from "../sources/mastodon.ts";
import { RssSearchSource } from "../sources/rss.ts";
import { TestMentionSource, TestSearchSource, testPostId } from "../sources/test-source.ts";
import type { MentionSource, SearchSource } from "../sources/types.ts";
import { XMentionSource, XSearchSource } from "../sources/x.ts";
import type { Telemetry } from "../telemetry/telemetry.ts";
import { type IntakeRun, runMentionIntake } from "./service.ts";
import { createTelegramIntake, type TelegramIntake, webhookDelivery } from "./telegram.ts";
import { clientBudget, createXBudget, type XBudget } from "./x-budget-store.ts";

/** A pass, or word that another worker holds an exclusive source's pass and this one skipped it. */
export type PassRun = IntakeRun & { skipped?: true };

/** X intake and the operator's hourly X API budget it spends (X_API_CALLS_PER_HOUR, intake/x-budget.ts). */
export interface XIntake {
  budget: XBudget;
  /** How often intake ticks (INTAKE_INTERVAL_MS): the searches' part of a window is spread over its ticks. */
  tickMs: number;
  /** X mention sources each tick polls: the budget keeps a call aside for each in every tick left. */
  mentionSources: number;
  /** Whether the bot replies on X (X_USER_ACCESS_TOKEN): the replies waiting to go out are kept aside too. */
  acknowledges: boolean;
  /** Recent search whose calls stop once the window's count reaches `ceiling` (what the bot's reserve leaves). */
  searchWithin(ceiling: number): SearchSource;
}

/**
 * The adapters this deployment uses: X API v2 with a bearer token, Bluesky, Mastodon and Telegram bots with their
 * credentials, feed documents (RSS, Atom, JSON Feed) always, test posts when test routes are on.
 */
export interface Intake {
  botHandle: string;
  mentionSources: MentionSource[];
  testMentions: TestMentionSource | null;
  /** The Telegram bot's intake, when TELEGRAM_INTAKE_BOT_TOKEN is set. */
  telegram: TelegramIntake | null;
  searchSourceFor(plugin: string): SearchSource | null;
  /** X intake's budget and budgeted searches, when X_BEARER_TOKEN is set. */
  x: XIntake | null;
  /** What intake ticks and the X budget's windows read the time from (tests move it). */
  clock(): Date;
  /** Where intake's polls are counted and its ticks traced: the composition's telemetry. */
  telemetry: Telemetry;
  /**
   * Runs one pass over a source; passes over the same source never overlap in this process, and an exclusive
   * source's pass is skipped while another worker runs one.
   */
  runPass(source: MentionSource): Promise<PassRun>;
  /** Applies one update Telegram pushed to the webhook, through the same pass as polling. */
  acceptTelegramUpdate(update: unknown): Promise<IntakeRun>;
  /** Says that intake stored or decided something (read caches clear on it). */
  notifyChanged(): void;
}

export interface IntakeOptions {
  telemetry: Telemetry;
  /** Told when intake stored or decided something (read caches clear on it). */
  notifyChanged?: () => void;
  clock?: () => Date;
}

export function createIntake(db: Database, env: AppEnv, logger: Logger, options: IntakeOptions): Intake {
  const { telemetry, notifyChanged = () => {} } = options;
  const clock = options.clock ?? (() => new Date());
  const xBudget = createXBudget(db, { limit: env.X_API_CALLS_PER_HOUR, clock });
  const xClient = (bearerToken: string, ceiling?: number) =>
    new XApiClient({
      baseUrl: env.X_API_BASE_URL,
      bearerToken,
      logger,
      budget: clientBudget(xBudget, ceiling),
    });
  const x = env.X_BEARER_TOKEN ? xClient(env.X_BEARER_TOKEN) : null;
  const blueskyLogin = Boolean(env.BLUESKY_IDENTIFIER && env.BLUESKY_APP_PASSWORD);
  const bluesky =
    blueskyLogin || env.BLUESKY_APPVIEW_URL
      ? new BlueskyClient({
          serviceUrl: env.BLUESKY_SERVICE_URL,
          appViewUrl: env.BLUESKY_APPVIEW_URL,
          identifier: env.BLUESKY_IDENTIFIER,
          appPassword: env.BLUESKY_APP_PASSWORD,
          logger,
        })
      : null;
  const mastodon =
    env.MASTODON_BASE_URL && env.MASTODON_ACCESS_TOKEN
      ? new MastodonClient({
          baseUrl: env.MASTODON_BASE_URL,
          accessToken: env.MASTODON_ACCESS_TOKEN,
          localDomain: env.MASTODON_BOT_ACCT?.split("@").filter(Boolean)[1],
          logger,
        })
      : null;
  const testMentions = env.ENABLE_TEST_ROUTES ? new TestMentionSource(db, env.BOT_HANDLE) : null;
  const testSearch = env.ENABLE_TEST_ROUTES ? new TestSearchSource(db) : null;
  const telegram = createTelegramIntake(env, logger);
  // Needs no credentials: every deployment reads feeds, through the outbound guard feed-chosen URLs go through.
  const rss = new RssSearchSource({ allowedHosts: env.PRIVATE_HOSTS_ALLOWED, logger });
  // One line per built-in source: a new network's search is a compile error until it has its line here.
  const searchSources: Record<SourcePluginName, () => SearchSource | null> = {
    "x-source": () => (x ? new XSearchSource(x) : null),
    "bluesky-source": () => (bluesky ? new BlueskySearchSource(bluesky, { logger }) : null),
    "mastodon-source": () => (mastodon ? new MastodonSearchSource(mastodon, { logger }) : null),
    "rss-source": () => rss,
    "test-source": () => testSearch,
  };
  const running = new Map<string, Promise<PassRun>>();

  const pass = async (source: MentionSource): Promise<PassRun> => {
    const run = () => runMentionIntake(db, source, logger, telemetry.metrics);
    if (!source.exclusive) return run();
    const locked = await tryExclusive(db, `intake:${source.key}`, run);
    return locked.ran ? locked.value : { read: 0, submitted: 0, moderated: 0, skipped: true };
  };

  const runPass = async (source: MentionSource): Promise<PassRun> => {
    // Chained so a pass asked for while one runs starts after it and sees everything stored by then.
    const previous = running.get(source.key) ?? Promise.resolve({ read: 0, submitted: 0, moderated: 0 });
    const next = previous.catch(() => undefined).then(() => pass(source));
    running.set(source.key, next);
    try {
      const run = await next;
      if (run.submitted || run.moderated) notifyChanged();
      return run;
    } finally {
      if (running.get(source.key) === next) running.delete(source.key);
    }
  };

  const bearerToken = env.X_BEARER_TOKEN;
  return {
    botHandle: env.BOT_HANDLE,
    clock,
    telemetry,
    x: bearerToken
      ? {
          budget: xBudget,
          tickMs: env.INTAKE_INTERVAL_MS,
          mentionSources: 1,
          acknowledges: Boolean(env.X_USER_ACCESS_TOKEN),
          searchWithin: (ceiling) => new XSearchSource(xClient(bearerToken, ceiling)),
        }
      : null,
    mentionSources: [
      ...(x ? [new XMentionSource(x, env.BOT_HANDLE)] : []),
      ...(bluesky && blueskyLogin && env.BLUESKY_IDENTIFIER
        ? [new BlueskyMentionSource(bluesky, env.BLUESKY_IDENTIFIER, { logger })]
        : []),
      ...(telegram ? [telegram.source] : []),
      ...(mastodon ? [new MastodonMentionSource(mastodon, { botAcct: env.MASTODON_BOT_ACCT, logger })] : []),
      ...(testMentions ? [testMentions] : []),
    ],
    testMentions,
    telegram,
    async acceptTelegramUpdate(update) {
      if (!telegram) throw new Error("Telegram intake is off on this server");
      const delivery = await webhookDelivery(telegram, update, logger);
      const run = await runMentionIntake(db, delivery, logger, telemetry.metrics);
      if (run.submitted || run.moderated) notifyChanged();
      return run;
    },
    searchSourceFor(plugin) {
      const name = builtinPluginName(plugin);
      return isSourcePluginName(name) ? searchSources[name]() : null;
    },
    runPass,
    notifyChanged,
  };
}

export interface TestPostInput {
  text: string;
  username: string;
  hashtags?: string[];
  inReplyToStatusId?: string;
}

/** The text as X would show it: hashtags the text lacks appended. */
function withHashtags(input: TestPostInput) {
  const hashtags = (input.hashtags ?? []).map((h) => h.replace(/^#/, "").toLowerCase());
  const missing = hashtags.filter((tag) => !new RegExp(`#${tag}(?!\\w)`, "i").test(input.text));
  return { text: [input.text, ...missing.map((tag) => `#${tag}`)].join(" "), hashtags };
}

/**
 * Stores test posts in the order given (their ids grow in that order) and runs the one intake pass that reads them
 * all.
 */
export async function createTestPosts(db: Database, intake: Intake, inputs: TestPostInput[]) {
  if (!intake.testMentions) throw new Error("Test posts are disabled on this server");
  const seqs = (
    await queryRows<{ seq: number }>(
      db,
      sql`select nextval(pg_get_serial_sequence('test_tweets', 'seq'))::int as seq
          from generate_series(1, ${inputs.length})`,
    )
  )
    .map((row) => row.seq)
    .sort((a, b) => a - b);
  const rows = await db
    .insert(testPosts)
    .values(
      inputs.map((input, index) => ({
        id: testPostId(seqs[index]),
        seq: seqs[index],
        ...withHashtags(input),
        username: input.username,
        inReplyToStatusId: input.inReplyToStatusId ?? null,
      })),
    )
    .returning();
  const intakeRun = await intake.runPass(intake.testMentions);
  return { posts: rows.sort((a, b) => a.seq - b.seq), intake: intakeRun };
}

/** Stores a test post (hashtags appended as X would show them) and runs the intake pass that reads it. */
export async function createTestPost(db: Database, intake: Intake, input: TestPostInput) {
  const {
    posts: [row],
    intake: intakeRun,
  } = await createTestPosts(db, intake, [input]);
  return {
    id: row.id,
    text: row.text,
    username: row.username,
    inReplyToStatusId: row.inReplyToStatusId,
    createdAt: row.createdAt.toISOString(),
    intake: intakeRun,
  };
}
