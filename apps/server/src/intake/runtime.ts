import { builtinPluginName } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { XApiClient } from "../clients/x-api.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { testTweets } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { consumeLimit } from "../limits/service.ts";
import { TestMentionSource, TestSearchSource, testTweetId } from "../sources/test-source.ts";
import type { MentionSource, SearchSource } from "../sources/types.ts";
import { XMentionSource, XSearchSource } from "../sources/x.ts";
import { type IntakeRun, runMentionIntake } from "./service.ts";

/** The adapters this deployment uses: X API v2 when it has a bearer token, test posts when test routes are on. */
export interface Intake {
  botHandle: string;
  mentionSources: MentionSource[];
  testMentions: TestMentionSource | null;
  searchSourceFor(plugin: string): SearchSource | null;
  /** Runs one pass over a source; passes over the same source never overlap. */
  runPass(source: MentionSource): Promise<IntakeRun>;
  /** Says that intake stored or decided something (read caches clear on it). */
  notifyChanged(): void;
}

export function createIntake(
  db: Database,
  env: AppEnv,
  logger: Logger,
  notifyChanged: () => void = () => {},
): Intake {
  const x = env.X_BEARER_TOKEN
    ? new XApiClient({
        baseUrl: env.X_API_BASE_URL,
        bearerToken: env.X_BEARER_TOKEN,
        logger,
        budget: () => consumeLimit(db, "x-api:calls", env.X_API_CALLS_PER_HOUR, 60 * 60_000),
      })
    : null;
  const testMentions = env.ENABLE_TEST_ROUTES ? new TestMentionSource(db, env.BOT_HANDLE) : null;
  const testSearch = env.ENABLE_TEST_ROUTES ? new TestSearchSource(db) : null;
  const running = new Map<string, Promise<IntakeRun>>();

  const runPass = async (source: MentionSource): Promise<IntakeRun> => {
    // Chained so a pass asked for while one runs starts after it and sees everything stored by then.
    const previous = running.get(source.key) ?? Promise.resolve({ read: 0, submitted: 0, moderated: 0 });
    const next = previous
      .catch(() => undefined)
      .then(() => runMentionIntake(db, env.BOT_HANDLE, source, logger));
    running.set(source.key, next);
    try {
      const run = await next;
      if (run.submitted || run.moderated) notifyChanged();
      return run;
    } finally {
      if (running.get(source.key) === next) running.delete(source.key);
    }
  };

  return {
    botHandle: env.BOT_HANDLE,
    mentionSources: [
      ...(x ? [new XMentionSource(x, env.BOT_HANDLE)] : []),
      ...(testMentions ? [testMentions] : []),
    ],
    testMentions,
    searchSourceFor(plugin) {
      const name = builtinPluginName(plugin);
      if (name === "x-source") return x ? new XSearchSource(x) : null;
      if (name === "test-source") return testSearch;
      return null;
    },
    runPass,
    notifyChanged,
  };
}

export interface TestTweetInput {
  text: string;
  username: string;
  hashtags?: string[];
  inReplyToStatusId?: string;
}

/** Stores a test post (hashtags appended as X would show them) and runs the intake pass that reads it. */
export async function createTestTweet(db: Database, intake: Intake, input: TestTweetInput) {
  if (!intake.testMentions) throw new Error("Test posts are disabled on this server");
  const hashtags = (input.hashtags ?? []).map((h) => h.replace(/^#/, "").toLowerCase());
  const missing = hashtags.filter((tag) => !new RegExp(`#${tag}(?!\\w)`, "i").test(input.text));
  const text = [input.text, ...missing.map((tag) => `#${tag}`)].join(" ");
  const [{ seq }] = await queryRows<{ seq: number }>(
    db,
    sql`select nextval(pg_get_serial_sequence('test_tweets', 'seq'))::int as seq`,
  );
  const [row] = await db
    .insert(testTweets)
    .values({
      id: testTweetId(seq),
      seq,
      text,
      username: input.username,
      inReplyToStatusId: input.inReplyToStatusId ?? null,
      hashtags,
    })
    .returning();
  const intakeRun = await intake.runPass(intake.testMentions);
  return {
    id: row.id,
    text: row.text,
    username: row.username,
    inReplyToStatusId: row.inReplyToStatusId,
    createdAt: row.createdAt.toISOString(),
    intake: intakeRun,
  };
}
