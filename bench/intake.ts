import { sql } from "drizzle-orm";
import { XApiClient } from "../apps/server/src/clients/x-api.ts";
import { feeds } from "../apps/server/src/db/schema.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { runMentionIntake } from "../apps/server/src/intake/service.ts";
import { XMentionSource } from "../apps/server/src/sources/x.ts";
import { startFakeX } from "../apps/server/test/fake-x.ts";
import { type Driver, openFreshDatabase } from "./db.ts";

const env = process.env;
const MENTIONS = Number(env.BENCH_MENTIONS ?? 10_000);
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim());
const DB_NAME = "curate_bench_intake";
const BOT = "curatebot";
const FEEDS = 10;

const log = (message: string) => process.stdout.write(`${message}\n`);

/**
 * 80% submissions of fresh posts, 10% resubmissions of earlier posts to another feed, 10% approvals by an
 * approver replying to a curator's submit post.
 */
function postMentions(x: Awaited<ReturnType<typeof startFakeX>>) {
  const submitted: Array<{ post: string; mention: string; feed: number }> = [];
  for (let i = 0; i < MENTIONS; i++) {
    const kind = i % 10;
    if (kind === 8 && submitted.length) {
      const earlier = submitted[(i * 7919) % submitted.length];
      const feed = (earlier.feed + 1) % FEEDS;
      x.tweet(`curator_${i % 500}`, `!submit @${BOT} #feed${feed} another angle ${i}`, earlier.post);
    } else if (kind === 9 && submitted.length) {
      const earlier = submitted[(i * 104729) % submitted.length];
      x.tweet(`approver_${earlier.feed}`, `@${BOT} !approve looks right`, earlier.mention);
    } else {
      const feed = i % FEEDS;
      const post = x.tweet(`author_${i % 2000}`, `Post ${i}: a thread worth curating about topic ${i % 97}`);
      const mention = x.tweet(`curator_${i % 500}`, `!submit @${BOT} #feed${feed} notes for ${i}`, post);
      submitted.push({ post, mention, feed });
    }
  }
}

async function runDriver(driver: string) {
  const x = await startFakeX({ bearerToken: "bench-token", botUsername: BOT });
  const { handle, dispose } = await openFreshDatabase(driver as Driver, DB_NAME);
  try {
    await handle.migrate();
    await handle.db.insert(feeds).values(
      Array.from({ length: FEEDS }, (_, i) => ({
        id: `feed${i}`,
        name: `Feed ${i}`,
        config: {
          id: `feed${i}`,
          name: `Feed ${i}`,
          description: "bench",
          moderation: { approvers: { twitter: [`approver_${i}`] } },
        },
      })),
    );
    postMentions(x);
    const source = new XMentionSource(new XApiClient({ baseUrl: x.url, bearerToken: "bench-token" }), BOT);
    const started = performance.now();
    const run = await runMentionIntake(handle.db, source);
    const seconds = (performance.now() - started) / 1000;
    const again = performance.now();
    const rerun = await runMentionIntake(handle.db, {
      key: "bench:replay",
      platform: "twitter",
      botHandle: BOT,
      fetchMentions: () => source.fetchMentions(null),
    });
    const replaySeconds = (performance.now() - again) / 1000;
    const [counts] = await queryRows<{ links: number; history: number }>(
      handle.db,
      sql`select (select count(*) from submission_feeds)::int as links, (select count(*) from moderation_history)::int as history`,
    );
    log(
      `${driver.padEnd(10)} ${String(run.read).padStart(6)} mentions in ${seconds.toFixed(1).padStart(5)} s = ${Math.round(
        run.read / seconds,
      )
        .toString()
        .padStart(
          5,
        )} mentions/s  (${run.submitted} links, ${run.moderated} decisions; replaying all ${rerun.read} stored ${rerun.submitted} links and ${rerun.moderated} decisions more in ${replaySeconds.toFixed(1)} s; ${counts.links} links, ${counts.history} history rows in all)`,
    );
  } finally {
    await dispose();
    await x.close();
  }
}

async function main() {
  log(`intake of ${MENTIONS.toLocaleString()} mentions from a local fake X API (pages of 100)`);
  for (const driver of DRIVERS) await runDriver(driver);
}

main().catch((error) => {
  process.stderr.write(`intake bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  if (error instanceof Error && error.cause) process.stderr.write(`cause: ${String(error.cause)}\n`);
  process.exit(1);
});
