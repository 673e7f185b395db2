import { sql } from "drizzle-orm";
import type { Database } from "../apps/server/src/db/index.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { counterMismatches } from "../apps/server/test/counters.ts";

export interface LoadSize {
  submissions: number;
  feeds: number;
  curators: number;
  authors: number;
}

/** A word that appears in about 1% of posts, so the search route returns a real but small set. */
export const RARE_WORD = "zeitgeist";

/**
 * Sentences the posts are assembled from (1 to 4 each, so 60 to ~450 characters). Two carry a literal
 * `%` and `_`, which the search-correctness check looks for.
 */
const FRAGMENTS = [
  "Stablecoin supply reached a new high this week while spot volumes stayed flat across major venues.",
  "New paper shows small models trained on filtered synthetic data match much larger ones on reasoning.",
  "The maintainers merged the long-awaited refactor and published a migration guide for plugin authors.",
  "Heat pump sales beat gas furnaces again, led by cold-climate models in northern markets.",
  "Design systems fail when they are a component library instead of a record of decisions.",
  "Indie studio hits a hundred thousand wishlists with a trailer cut in a single weekend.",
  "Research DAO funds an open replication of a widely cited result and publishes the protocol first.",
  "Chain signatures let one account control addresses on other chains without a bridge.",
  "We cut CI from forty minutes to nine by caching the right layers and deleting mock-only tests.",
  "Zero-knowledge proofs are fast enough for phones now; proving age without a birthday is practical.",
  "Offshore wind auction cleared at record-low prices, with storage bundled into most bids.",
  "Open weights release with a permissive license, long context and an honest model card.",
  "Grid batteries are now bid as capacity, not just arbitrage, which changes how they are financed.",
  "Exchange publishes proof of reserves with liabilities included for the first time.",
  "Type-safe SQL without an ORM is having a moment and the ergonomics keep getting better.",
  "Speedrunners found a skip that saves four minutes with a one-frame input window.",
  "Transmission is the climate story nobody reads: generation is ready, the wires are not.",
  "Evals are the moat: anyone can fine-tune, few can say whether the result got better for users.",
  "Governance doc explains who can merge, how decisions are made and how maintainers step down.",
  "Token unlock schedules are public; being surprised by one is a research problem.",
  "Fees on the rollup are up 12% on the week as blob usage settles into a steady pattern.",
  "The style guide now asks for snake_case in config keys and kebab-case in file names.",
  "Peer review takes months and pays nothing; paying reviewers and publishing reviews changes that.",
  "Empty states are onboarding: every empty list is a chance to say what to do next.",
  "Community solar project cut bills by fifteen percent for four hundred households.",
  "Reading group this week covers in-context learning and the circuits behind it.",
  "Release notes that lead with breaking changes in bold are an act of kindness.",
  "Validator exits slowed as the staking queue cleared over the weekend.",
  "Metadata is data: encryption hides what was said, not who talked to whom or when.",
  "Passkey adoption keeps climbing, and phishing-resistant sign-in is becoming the default.",
  "The hackathon closed with sixty projects, most of them shipping working demos.",
  "Direct air capture pilot published a full year of measured removal data.",
];

const FEED_TOPICS = [
  "Crypto",
  "AI",
  "Open Source",
  "Climate",
  "Design",
  "Gaming",
  "DeSci",
  "NEAR",
  "DevTools",
  "Privacy",
];

/**
 * Loads the benchmark data set with set-based SQL inside one transaction. Per-row triggers are skipped
 * (session_replication_role = replica) and their results — overall status, per-scope counters — are computed
 * in bulk instead; secondary indexes are dropped and rebuilt from their own definitions afterwards, which is
 * far faster than maintaining them row by row.
 */
export async function loadBenchData(db: Database, size: LoadSize): Promise<void> {
  // Zero-padded numbering wide enough for every id (feed01 … feed200, curator_00000 …).
  const feedWidth = Math.max(2, String(size.feeds).length);
  const curatorWidth = Math.max(4, String(size.curators - 1).length);
  const fragments = sql`array[${sql.join(
    FRAGMENTS.map((f) => sql`${f}`),
    sql`, `,
  )}]::text[]`;
  const topics = sql`array[${sql.join(
    FEED_TOPICS.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;

  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    const indexes = await queryRows<{ name: string; def: string }>(
      tx as unknown as Database,
      sql`select i.indexname as name, i.indexdef as def from pg_indexes i
        join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
        where i.schemaname = 'public' and i.tablename in ('submissions', 'submission_feeds', 'moderation_history')
          and not x.indisprimary and not x.indisunique`,
    );
    for (const index of indexes) await tx.execute(sql.raw(`drop index "${index.name}"`));

    await tx.execute(sql`select setseed(0.42)`);
    await tx.execute(sql`
      insert into feeds (id, name, description, config, created_by, created_at, updated_at)
      select 'feed' || lpad(i::text, ${feedWidth}::int, '0'),
        (${topics})[1 + (i - 1) % 10] || ' Digest ' || i,
        'Benchmark feed ' || i || ': community picks about ' || (${topics})[1 + (i - 1) % 10] || '.',
        jsonb_build_object(
          'id', 'feed' || lpad(i::text, ${feedWidth}::int, '0'), 'name', (${topics})[1 + (i - 1) % 10] || ' Digest ' || i,
          'description', 'Benchmark feed ' || i, 'enabled', true,
          'sources', jsonb_build_array(jsonb_build_object('plugin', '@curatedotfun/twitter-source')),
          'outputs', jsonb_build_object('stream', jsonb_build_object('enabled', true))),
        'bench.near', now() - interval '400 days', now() - interval '400 days'
      from generate_series(1, ${size.feeds}) i`);

    // One row of random draws per post; everything else is derived from it, so links and status agree.
    await tx.execute(sql`
      create temp table bench_posts on commit drop as
      select g,
        (1700000000000000000 + g)::text as tweet_id,
        'feed' || lpad((1 + floor(power(random(), 1.6) * ${size.feeds}))::int::text, ${feedWidth}::int, '0') as feed1,
        random() < 0.25 as has2,
        (1 + floor(random() * ${size.feeds}))::int as feed2_n,
        case when random() < 0.2 then 'pending' when random() < 0.75 then 'approved' else 'rejected' end as st1,
        case when random() < 0.2 then 'pending' when random() < 0.75 then 'approved' else 'rejected' end as st2,
        'curator_' || lpad(floor(power(random(), 2) * ${size.curators})::int::text, ${curatorWidth}::int, '0') as curator,
        'curator_' || lpad(floor(random() * ${size.curators})::int::text, ${curatorWidth}::int, '0') as curator2,
        'author_' || floor(random() * ${size.authors})::int as author,
        now() - random() * interval '365 days' as submitted_at,
        random() as r_len, random() as r_a, random() as r_b, random() as r_c, random() as r_d,
        random() < 0.3 as no_notes
      from generate_series(1, ${size.submissions}) g`);
    await tx.execute(sql`
      update bench_posts set feed2_n = null where not has2 or 'feed' || lpad(feed2_n::text, ${feedWidth}::int, '0') = feed1`);

    const n = FRAGMENTS.length;
    const frag = (col: string) => sql`(${fragments})[1 + floor(${sql.raw(col)} * ${n})::int]`;
    await tx.execute(sql`
      insert into submissions (tweet_id, user_id, username, content, curator_id, curator_username, curator_notes,
        curator_tweet_id, status, created_at, submitted_at, updated_at)
      select tweet_id, (1000000 + hashtext(author) % 1000000 + 1000000)::text, author,
        case when g % 100 = 42 then 'Zeitgeist check: ' else '' end || ${frag("r_a")}
          || case when r_len > 0.25 then ' ' || ${frag("r_b")} else '' end
          || case when r_len > 0.55 then ' ' || ${frag("r_c")} else '' end
          || case when r_len > 0.85 then ' ' || ${frag("r_d")} else '' end,
        (2000000 + hashtext(curator) % 1000000 + 1000000)::text, curator,
        case when no_notes then null else 'Worth a read, note ' || g end,
        (1800000000000000000 + g)::text,
        case
          when st1 = 'approved' or (feed2_n is not null and st2 = 'approved') then 'approved'
          when st1 = 'pending' or (feed2_n is not null and st2 = 'pending') then 'pending'
          else 'rejected'
        end,
        submitted_at - r_a * interval '3 hours', submitted_at, submitted_at + interval '1 hour'
      from bench_posts`);
    await tx.execute(sql`
      insert into submission_feeds (submission_id, feed_id, status, curator_id, curator_username, curator_notes,
        curator_tweet_id, submitted_at, created_at, updated_at)
      select tweet_id, feed1, st1, null, curator, null, null, submitted_at, submitted_at, submitted_at
      from bench_posts
      union all
      select tweet_id, 'feed' || lpad(feed2_n::text, ${feedWidth}::int, '0'), st2, null, curator2, 'Cross-posted', null,
        submitted_at + interval '10 minutes', submitted_at, submitted_at
      from bench_posts where feed2_n is not null`);
    await tx.execute(sql`
      insert into moderation_history (submission_id, feed_id, moderator_account_id, moderator_account_id_type,
        source, action, note, created_at, updated_at)
      select submission_id, feed_id, 'mod' || (hashtext(submission_id) & 7) || '.near', 'near', 'ui',
        case status when 'approved' then 'approve' else 'reject' end, null,
        submitted_at + interval '30 minutes', submitted_at + interval '30 minutes'
      from submission_feeds where status <> 'pending'`);
    await tx.execute(sql`select curate_rebuild_submission_counts()`);
    // Curator, daily and moderator statistics, as the per-row triggers would have kept them.
    await tx.execute(sql`select curate_rebuild_stats()`);

    for (const index of indexes) await tx.execute(sql.raw(index.def));
  });
  // As autovacuum leaves a table at rest: statistics, and a visibility map so index-only scans skip the heap.
  await db.execute(sql`vacuum analyze`);
}

/** Fails loudly if the bulk load broke an invariant the triggers would have kept. */
export async function checkLoadedData(db: Database): Promise<{ submissions: number; links: number }> {
  const [row] = await queryRows<{ submissions: number; links: number; badStatus: number }>(
    db,
    sql`select
      (select count(*) from submissions)::int as submissions,
      (select count(*) from submission_feeds)::int as links,
      (select count(*) from submissions s where s.status <> (
        select case when bool_or(sf.status = 'approved') then 'approved'
          when bool_or(sf.status = 'pending') then 'pending' else 'rejected' end
        from submission_feeds sf where sf.submission_id = s.tweet_id))::int as "badStatus"`,
  );
  const badCounts = (await counterMismatches(db)).length;
  if (badCounts || row.badStatus) {
    throw new Error(`bulk load is inconsistent: ${badCounts} counter rows, ${row.badStatus} statuses differ`);
  }
  return { submissions: row.submissions, links: row.links };
}
