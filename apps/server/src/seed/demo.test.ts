import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Feed,
  feedConfigSchema,
  handleOnPlatform,
  isFeedComplete,
  type Platform,
  splitHandleKey,
  submissionKey,
} from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterMismatches } from "../../test/counters.ts";
import { freshDatabase } from "../../test/harness.ts";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { findFeed, listFeeds } from "../feeds/service.ts";
import { type SeedSummary, seedDemoData } from "./demo.ts";
import { buildDemoPlan } from "./plan.ts";

const PUBLIC_URL = "http://curate.test:3000";
const NOW = new Date("2025-06-01T12:00:00.000Z");

let db: Database;
let dispose: () => Promise<void>;
let uploadsDir: string;
let summary: SeedSummary;

beforeAll(async () => {
  const fresh = await freshDatabase();
  db = fresh.handle.db;
  dispose = fresh.dispose;
  uploadsDir = join(mkdtempSync(join(tmpdir(), "curate-seed-")), "uploads");
  summary = await seedDemoData(db, { uploadsDir, publicUrl: `${PUBLIC_URL}/`, now: NOW });
});

afterAll(async () => {
  await dispose?.();
  if (uploadsDir) rmSync(join(uploadsDir, ".."), { recursive: true, force: true });
});

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db, query);
/** Every visible feed with its whole config (lists carry summaries only). */
const fullFeeds = async () =>
  Promise.all((await listFeeds(db)).map(async (summary) => (await findFeed(db, summary.id)) as Feed));

describe("seedDemoData", () => {
  it("creates a dozen visible feeds plus the hidden catch-all feed", async () => {
    expect(summary.feeds).toBe(12);
    const visible = await listFeeds(db);
    expect(visible).toHaveLength(12);
    expect(visible.map((f) => f.id)).not.toContain("all");
    const [all] = await rows<{ id: string }>(sql`select id from feeds where id = 'all'`);
    expect(all?.id).toBe("all");
  });

  it("gives every feed a config that parses, with images stored under their content hash", async () => {
    const feeds = await fullFeeds();
    const incomplete: string[] = [];
    for (const feed of feeds) {
      const parsed = feedConfigSchema.safeParse(feed.config);
      expect(parsed.success, `${feed.id}: ${parsed.error?.message}`).toBe(true);
      expect(feed.config.id).toBe(feed.id);
      expect(feed.createdBy).toMatch(/^[a-z0-9_-]+\.near$/);
      expect(feed.config.image).toBe(feed.image);
      // A path, not an address: the page resolves it against whichever host serves it.
      const match = feed.image?.match(/^\/uploads\/([0-9a-f]{64})\.svg$/);
      expect(match, feed.image ?? "no image").not.toBeNull();
      const bytes = readFileSync(join(uploadsDir, `${match![1]}.svg`));
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(match![1]);
      expect(bytes.toString()).toContain('viewBox="0 0 400 400"');
      if (!isFeedComplete(feed.config)) incomplete.push(feed.id);
    }
    expect(new Set(feeds.map((f) => f.image)).size).toBe(feeds.length);
    expect(incomplete).toHaveLength(2);
    const summaries = await listFeeds(db);
    expect(
      summaries
        .filter((f) => !f.complete)
        .map((f) => f.id)
        .sort(),
    ).toEqual(incomplete.sort());
    const uploads = await rows<{ n: number }>(sql`select count(*)::int as n from uploads`);
    expect(uploads[0].n).toBe(readdirSync(uploadsDir).length);
  });

  it("keeps secrets as {{NAME}} placeholders only", async () => {
    const feeds = await fullFeeds();
    const secretKeys = /token|secret|apikey|password/i;
    const visit = (value: unknown, key = ""): void => {
      if (value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) visit(v, k);
      } else if (secretKeys.test(key)) {
        expect(value, key).toMatch(/^\{\{[A-Z][A-Z0-9_]*\}\}$/);
      }
    };
    for (const feed of feeds) visit(feed.config);
  });

  it("seeds about 400 submissions in all three statuses from dozens of curators", async () => {
    expect(summary.submissions).toBeGreaterThanOrEqual(350);
    expect(summary.submissions).toBeLessThanOrEqual(450);
    expect(summary.curators).toBeGreaterThanOrEqual(30);
    const byStatus = await rows<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from submissions group by status`,
    );
    const counts = Object.fromEntries(byStatus.map((r) => [r.status, r.n]));
    for (const status of ["pending", "approved", "rejected"]) expect(counts[status]).toBeGreaterThan(20);

    const [shape] = await rows<{
      long: number;
      lastHour: number;
      authors: number;
      withoutNotes: number;
      withLinks: number;
      withImage: number;
    }>(sql`select
      count(*) filter (where length(content) > 240)::int as long,
      count(*) filter (where submitted_at > ${NOW.toISOString()}::timestamptz - interval '1 hour')::int as "lastHour",
      count(distinct username)::int as authors,
      count(*) filter (where curator_notes is null)::int as "withoutNotes",
      count(*) filter (where content like '%https://%')::int as "withLinks",
      count(author_profile_image)::int as "withImage"
      from submissions`);
    expect(shape.long).toBeGreaterThan(10);
    expect(shape.lastHour).toBeGreaterThanOrEqual(3);
    expect(shape.authors).toBeGreaterThanOrEqual(60);
    expect(shape.withoutNotes).toBeGreaterThan(0);
    expect(shape.withLinks).toBeGreaterThan(30);
    expect(shape.withImage).toBe(0);
  });

  it("seeds about a quarter of its posts from Bluesky, Mastodon, Telegram and blogs, keyed per network", async () => {
    const byPlatform = await rows<{ platform: string; n: number; named: number }>(sql`
      select platform, count(*)::int as n, count(author_display_name)::int as named
      from submissions group by platform order by platform`);
    const counts = Object.fromEntries(byPlatform.map((r) => [r.platform, r.n]));
    for (const platform of ["bluesky", "mastodon", "telegram", "rss"]) {
      expect(counts[platform], platform).toBeGreaterThan(5);
      expect(byPlatform.find((r) => r.platform === platform)?.named, platform).toBe(counts[platform]);
    }
    const others = summary.submissions - counts.twitter;
    expect(others / summary.submissions).toBeGreaterThanOrEqual(0.25);
    expect(others / summary.submissions).toBeLessThanOrEqual(0.35);

    const posts = await rows<{
      platform: Platform;
      tweet_id: string;
      url: string;
      username: string;
      curator_username: string | null;
      curator_tweet_id: string | null;
    }>(sql`select platform, tweet_id, url, username, curator_username, curator_tweet_id from submissions
      where platform <> 'twitter'`);
    const shapes: Record<string, { key: RegExp; url: (post: (typeof posts)[number]) => RegExp }> = {
      bluesky: {
        key: /^at:\/\/did:plc:[a-z2-7]{24}\/app\.bsky\.feed\.post\/([a-z2-7]{13})$/,
        url: (post) => new RegExp(`^https://bsky\\.app/profile/${post.username}/post/[a-z2-7]{13}$`),
      },
      mastodon: {
        key: /^https:\/\/[a-z.]+\/users\/[a-z]+\/statuses\/\d{18}$/,
        url: (post) =>
          new RegExp(`^https://${post.username.split("@")[1]}/@${post.username.split("@")[0]}/\\d{18}$`),
      },
      telegram: { key: /^-100\d{10}:\d+$/, url: () => /^https:\/\/t\.me\/[a-z_]+\/\d+$/ },
      rss: {
        key: /^https:\/\/[a-z.]+\/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+$/,
        url: () => /^https:\/\/[a-z.]+\/\d{4}\//,
      },
    };
    for (const post of posts) {
      const shape = shapes[post.platform];
      const id = post.tweet_id.slice(post.platform.length + 1);
      expect(post.tweet_id, post.tweet_id).toBe(submissionKey(post.platform, id));
      expect(id, post.tweet_id).toMatch(shape.key);
      expect(post.url, post.tweet_id).toMatch(shape.url(post));
      if (post.platform === "bluesky") expect(post.url.endsWith(id.split("/").at(-1) ?? "")).toBe(true);
      if (post.platform === "rss") {
        expect(post.url).toBe(id);
        expect(post.curator_username).toBeNull();
      } else {
        const handle = post.curator_username ? splitHandleKey(post.curator_username) : null;
        expect(handle?.platform, post.tweet_id).toBe(post.platform);
        expect(post.curator_username).toBe(handleOnPlatform(post.platform, handle?.handle ?? ""));
        expect(post.curator_tweet_id?.startsWith(`${post.platform}:`), post.tweet_id).toBe(true);
      }
    }
  });

  it("names approvers per network in some feeds, who decide by reply on their network", async () => {
    const feeds = await fullFeeds();
    const networks = new Set(
      feeds.flatMap((feed) =>
        Object.entries(feed.config.moderation?.approvers ?? {})
          .filter(([platform, handles]) => platform !== "twitter" && handles.length > 0)
          .map(([platform]) => platform),
      ),
    );
    expect([...networks].sort()).toEqual(["bluesky", "mastodon", "telegram"]);
    const replies = await rows<{ platform: string; moderator: string }>(sql`
      select distinct s.platform, mh.moderator_account_id as moderator
      from moderation_history mh join submissions s on s.tweet_id = mh.submission_id
      where mh.source in ('platform_comment', 'auto_approval') and s.platform <> 'twitter'`);
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies)
      expect(reply.moderator.startsWith(`${reply.platform}:`), reply.moderator).toBe(true);
  });

  it("cross-posts some submissions to several feeds with different per-feed outcomes", async () => {
    const [multi] = await rows<{ multi: number; mixed: number; otherCurator: number }>(sql`
      select count(*)::int as multi,
        count(*) filter (where statuses > 1)::int as mixed,
        count(*) filter (where curators > 1)::int as "otherCurator"
      from (
        select submission_id, count(distinct status) as statuses, count(distinct curator_username) as curators
        from submission_feeds group by submission_id having count(*) > 1
      ) x`);
    expect(multi.multi).toBeGreaterThan(15);
    expect(multi.mixed).toBeGreaterThan(0);
    expect(multi.otherCurator).toBeGreaterThan(0);
  });

  it("keeps the trigger-maintained counters equal to real counts", async () => {
    expect(await counterMismatches(db)).toEqual([]);
  });

  it("records a moderation entry and an activity for every decision, and a submission activity per link", async () => {
    const undecided = await rows(sql`
      select sf.submission_id, sf.feed_id from submission_feeds sf
      where sf.status <> 'pending' and not exists (
        select 1 from moderation_history mh
        where mh.submission_id = sf.submission_id and mh.feed_id = sf.feed_id
          and mh.action = case sf.status when 'approved' then 'approve' else 'reject' end)`);
    expect(undecided).toEqual([]);
    const [counts] = await rows<{
      links: number;
      decided: number;
      history: number;
      sub: number;
      dec: number;
    }>(sql`
      select (select count(*) from submission_feeds)::int as links,
        (select count(*) from submission_feeds where status <> 'pending')::int as decided,
        (select count(*) from moderation_history)::int as history,
        (select count(*) from activities where type = 'CONTENT_SUBMISSION')::int as sub,
        (select count(*) from activities where type in ('CONTENT_APPROVAL', 'CONTENT_REJECTION'))::int as dec`);
    expect(counts.history).toBe(counts.decided);
    expect(counts.sub).toBe(counts.links);
    expect(counts.dec).toBe(counts.decided);
    const sources = await rows<{ source: string }>(
      sql`select distinct source from moderation_history order by 1`,
    );
    expect(sources.map((r) => r.source)).toEqual(["auto_approval", "platform_comment", "ui"]);
    const nearModerators = await rows<{ id: string }>(sql`
      select distinct moderator_account_id as id from moderation_history where moderator_account_id_type = 'near'
      except select near_account_id from users`);
    expect(nearModerators).toEqual([]);
  });

  it("keeps feed_user_stats consistent with the feed links", async () => {
    const mismatches = await rows(sql`
      with actual as (
        select feed_id, curator_username, count(*)::int as s,
          (count(*) filter (where status = 'approved'))::int as a,
          (count(*) filter (where status = 'rejected'))::int as r
        -- What a feed source found has no curator to count.
        from submission_feeds where curator_username is not null group by feed_id, curator_username
      )
      select * from actual a full join feed_user_stats f using (feed_id, curator_username)
      where a.s is distinct from f.submission_count or a.a is distinct from f.approval_count
        or a.r is distinct from f.rejection_count`);
    expect(mismatches).toEqual([]);
  });

  it("keeps each submission's last change time instead of the seeding time", async () => {
    const [row] = await rows<{ future: number }>(
      sql`select count(*)::int as future from submissions where updated_at > ${NOW.toISOString()}::timestamptz`,
    );
    expect(row.future).toBe(0);
  });

  it("is deterministic for a given reference time", async () => {
    const options = { now: NOW, publicUrl: PUBLIC_URL, botHandle: "curatedotfun" };
    expect(JSON.stringify(buildDemoPlan(options))).toBe(JSON.stringify(buildDemoPlan(options)));

    const snapshot = async () =>
      rows(sql`select
        (select json_agg(s order by tweet_id) from submissions s) as submissions,
        (select json_agg(sf order by submission_id, feed_id) from submission_feeds sf) as links,
        (select json_agg(mh order by id) from moderation_history mh) as history,
        (select json_agg(f order by id) from feeds f) as feeds,
        (select json_agg(a order by id) from activities a) as activities`);
    const before = await snapshot();
    const filesBefore = readdirSync(uploadsDir).sort();
    await db.execute(sql`truncate feeds, submissions, submission_feeds, moderation_history, submission_counts, submission_day_counts,
      users, activities, feed_user_stats, uploads restart identity cascade`);
    await seedDemoData(db, { uploadsDir, publicUrl: PUBLIC_URL, now: NOW });
    expect(await snapshot()).toEqual(before);
    expect(readdirSync(uploadsDir).sort()).toEqual(filesBefore);
  });
});
