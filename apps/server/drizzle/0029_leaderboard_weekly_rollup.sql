CREATE TABLE "curator_weekly_stats" (
	"week" date NOT NULL,
	"curator_username" text NOT NULL,
	"scope" text NOT NULL,
	"curator_id" text,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"approval_count" integer DEFAULT 0 NOT NULL,
	"rejection_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "curator_weekly_stats_week_curator_username_scope_pk" PRIMARY KEY("week","curator_username","scope")
);
--> statement-breakpoint
CREATE INDEX "curator_weekly_stats_rank_idx" ON "curator_weekly_stats" USING btree ("scope","week","submission_count" DESC NULLS LAST,"approval_count" DESC NULLS LAST,"curator_username");--> statement-breakpoint
-- The weekly roll-up is kept beside the monthly one, by the same function and in the same way (docs/decisions/0014,
-- 0035). A week is the ISO week of the link's UTC day of submission: date_trunc('week') is its Monday, as This
-- Week's start is.
CREATE OR REPLACE FUNCTION curate_bump_curator(
  p_feed text, p_curator text, p_curator_id text, p_day date, p_submissions int, p_approvals int, p_rejections int
) RETURNS void AS $$
DECLARE
  v_month date := date_trunc('month', p_day)::date;
  v_week date := date_trunc('week', p_day)::date;
  v_feed_exists boolean;
BEGIN
  IF p_curator IS NULL THEN RETURN; END IF;
  INSERT INTO curator_stats (curator_username, curator_id, submission_count, approval_count, rejection_count)
  VALUES (p_curator, p_curator_id, p_submissions, p_approvals, p_rejections)
  ON CONFLICT (curator_username) DO UPDATE SET
    curator_id = coalesce(curator_stats.curator_id, EXCLUDED.curator_id),
    submission_count = curator_stats.submission_count + EXCLUDED.submission_count,
    approval_count = curator_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = curator_stats.rejection_count + EXCLUDED.rejection_count;
  -- A feed being deleted takes its per-feed rows with it (foreign key cascade, or curate_feed_daily_cleanup);
  -- nothing to add back there. The curator's row across feeds loses the links as curator_stats does. The daily
  -- rows are per feed too: their cleanup may run before the links' cascade, whose decrements would otherwise
  -- leave negative rows of a feed that is gone, subtracted from Today ever after.
  v_feed_exists := EXISTS (SELECT 1 FROM feeds WHERE id = p_feed);
  IF v_feed_exists THEN
    INSERT INTO curator_daily_stats (feed_id, curator_username, day, curator_id, submission_count, approval_count, rejection_count)
    VALUES (p_feed, p_curator, p_day, p_curator_id, p_submissions, p_approvals, p_rejections)
    ON CONFLICT (day, feed_id, curator_username) DO UPDATE SET
      submission_count = curator_daily_stats.submission_count + EXCLUDED.submission_count,
      approval_count = curator_daily_stats.approval_count + EXCLUDED.approval_count,
      rejection_count = curator_daily_stats.rejection_count + EXCLUDED.rejection_count;
  END IF;
  INSERT INTO curator_monthly_stats (month, curator_username, scope, curator_id, submission_count, approval_count, rejection_count)
  SELECT v_month, r.curator_username, r.scope, r.curator_id, p_submissions, p_approvals, p_rejections
  FROM (VALUES (p_curator, '*', p_curator_id, true), (p_curator, p_feed, p_curator_id, v_feed_exists),
      ('*', p_feed, NULL, v_feed_exists)) AS r(curator_username, scope, curator_id, keep)
  WHERE r.keep
  ON CONFLICT (month, curator_username, scope) DO UPDATE SET
    curator_id = coalesce(curator_monthly_stats.curator_id, EXCLUDED.curator_id),
    submission_count = curator_monthly_stats.submission_count + EXCLUDED.submission_count,
    approval_count = curator_monthly_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = curator_monthly_stats.rejection_count + EXCLUDED.rejection_count;
  INSERT INTO curator_weekly_stats (week, curator_username, scope, curator_id, submission_count, approval_count, rejection_count)
  SELECT v_week, r.curator_username, r.scope, r.curator_id, p_submissions, p_approvals, p_rejections
  FROM (VALUES (p_curator, '*', p_curator_id, true), (p_curator, p_feed, p_curator_id, v_feed_exists),
      ('*', p_feed, NULL, v_feed_exists)) AS r(curator_username, scope, curator_id, keep)
  WHERE r.keep
  ON CONFLICT (week, curator_username, scope) DO UPDATE SET
    curator_id = coalesce(curator_weekly_stats.curator_id, EXCLUDED.curator_id),
    submission_count = curator_weekly_stats.submission_count + EXCLUDED.submission_count,
    approval_count = curator_weekly_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = curator_weekly_stats.rejection_count + EXCLUDED.rejection_count;
  IF v_feed_exists THEN
    INSERT INTO feed_user_stats (feed_id, curator_username, curator_id, submission_count, approval_count, rejection_count)
    VALUES (p_feed, p_curator, p_curator_id, p_submissions, p_approvals, p_rejections)
    ON CONFLICT (feed_id, curator_username) DO UPDATE SET
      submission_count = feed_user_stats.submission_count + EXCLUDED.submission_count,
      approval_count = feed_user_stats.approval_count + EXCLUDED.approval_count,
      rejection_count = feed_user_stats.rejection_count + EXCLUDED.rejection_count,
      updated_at = now();
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_feed_daily_cleanup() RETURNS trigger AS $$
BEGIN
  DELETE FROM curator_daily_stats WHERE feed_id = OLD.id;
  DELETE FROM curator_monthly_stats WHERE scope = OLD.id;
  DELETE FROM curator_weekly_stats WHERE scope = OLD.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The weekly roll-up from the daily rows (which hold every link with a curator).
CREATE OR REPLACE FUNCTION curate_rebuild_weekly_stats() RETURNS void AS $$
BEGIN
  DELETE FROM curator_weekly_stats;
  INSERT INTO curator_weekly_stats (week, curator_username, scope, curator_id, submission_count, approval_count, rejection_count)
  SELECT date_trunc('week', day)::date, curator_username, feed_id, max(curator_id), sum(submission_count),
    sum(approval_count), sum(rejection_count)
  FROM curator_daily_stats GROUP BY 1, curator_username, feed_id
  UNION ALL
  SELECT date_trunc('week', day)::date, curator_username, '*', max(curator_id), sum(submission_count),
    sum(approval_count), sum(rejection_count)
  FROM curator_daily_stats GROUP BY 1, curator_username
  UNION ALL
  SELECT date_trunc('week', day)::date, '*', feed_id, NULL, sum(submission_count),
    sum(approval_count), sum(rejection_count)
  FROM curator_daily_stats GROUP BY 1, feed_id;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- curate_rebuild_stats() rebuilds the roll-ups through this one, once the daily rows are rebuilt: the weekly with
-- the monthly.
CREATE OR REPLACE FUNCTION curate_rebuild_monthly_stats() RETURNS void AS $$
BEGIN
  DELETE FROM curator_monthly_stats;
  INSERT INTO curator_monthly_stats (month, curator_username, scope, curator_id, submission_count, approval_count, rejection_count)
  SELECT date_trunc('month', day)::date, curator_username, feed_id, max(curator_id), sum(submission_count),
    sum(approval_count), sum(rejection_count)
  FROM curator_daily_stats GROUP BY 1, curator_username, feed_id
  UNION ALL
  SELECT date_trunc('month', day)::date, curator_username, '*', max(curator_id), sum(submission_count),
    sum(approval_count), sum(rejection_count)
  FROM curator_daily_stats GROUP BY 1, curator_username
  UNION ALL
  SELECT date_trunc('month', day)::date, '*', feed_id, NULL, sum(submission_count),
    sum(approval_count), sum(rejection_count)
  FROM curator_daily_stats GROUP BY 1, feed_id;
  PERFORM curate_rebuild_weekly_stats();
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Daily rows left behind by deleted feeds (see above) hold only decrements of links that are gone.
DELETE FROM curator_daily_stats d WHERE NOT EXISTS (SELECT 1 FROM feeds f WHERE f.id = d.feed_id);
--> statement-breakpoint
-- The weeks of the links already written.
SELECT curate_rebuild_weekly_stats();
