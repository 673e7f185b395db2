-- Curator and moderator statistics kept in the writing transaction, whoever writes (docs/decisions/0004).
CREATE OR REPLACE FUNCTION curate_bump_curator(
  p_feed text, p_curator text, p_curator_id text, p_day date, p_submissions int, p_approvals int, p_rejections int
) RETURNS void AS $$
BEGIN
  IF p_curator IS NULL THEN RETURN; END IF;
  INSERT INTO curator_stats (curator_username, curator_id, submission_count, approval_count, rejection_count)
  VALUES (p_curator, p_curator_id, p_submissions, p_approvals, p_rejections)
  ON CONFLICT (curator_username) DO UPDATE SET
    curator_id = coalesce(curator_stats.curator_id, EXCLUDED.curator_id),
    submission_count = curator_stats.submission_count + EXCLUDED.submission_count,
    approval_count = curator_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = curator_stats.rejection_count + EXCLUDED.rejection_count;
  INSERT INTO curator_daily_stats (feed_id, curator_username, day, curator_id, submission_count, approval_count, rejection_count)
  VALUES (p_feed, p_curator, p_day, p_curator_id, p_submissions, p_approvals, p_rejections)
  ON CONFLICT (day, feed_id, curator_username) DO UPDATE SET
    submission_count = curator_daily_stats.submission_count + EXCLUDED.submission_count,
    approval_count = curator_daily_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = curator_daily_stats.rejection_count + EXCLUDED.rejection_count;
  -- A feed being deleted takes its per-feed rows with it (foreign key cascade); nothing to add back.
  IF EXISTS (SELECT 1 FROM feeds WHERE id = p_feed) THEN
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
CREATE OR REPLACE FUNCTION curate_link_stats() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM curate_bump_curator(NEW.feed_id, NEW.curator_username, NEW.curator_id,
      (NEW.submitted_at AT TIME ZONE 'UTC')::date, 1,
      (NEW.status = 'approved')::int, (NEW.status = 'rejected')::int);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM curate_bump_curator(OLD.feed_id, OLD.curator_username, OLD.curator_id,
      (OLD.submitted_at AT TIME ZONE 'UTC')::date, -1,
      -(OLD.status = 'approved')::int, -(OLD.status = 'rejected')::int);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM curate_bump_curator(NEW.feed_id, NEW.curator_username, NEW.curator_id,
      (NEW.submitted_at AT TIME ZONE 'UTC')::date, 0,
      (NEW.status = 'approved')::int - (OLD.status = 'approved')::int,
      (NEW.status = 'rejected')::int - (OLD.status = 'rejected')::int);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER submission_feeds_stats AFTER INSERT OR DELETE OR UPDATE OF status ON submission_feeds
  FOR EACH ROW EXECUTE FUNCTION curate_link_stats();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_moderation_stats() RETURNS trigger AS $$
DECLARE
  r moderation_history;
  sign int;
BEGIN
  IF TG_OP = 'INSERT' THEN r := NEW; sign := 1; ELSE r := OLD; sign := -1; END IF;
  INSERT INTO moderator_stats (moderator_account_id, approval_count, rejection_count, total_count)
  VALUES (r.moderator_account_id, sign * (r.action = 'approve')::int, sign * (r.action = 'reject')::int, sign)
  ON CONFLICT (moderator_account_id) DO UPDATE SET
    approval_count = moderator_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = moderator_stats.rejection_count + EXCLUDED.rejection_count,
    total_count = moderator_stats.total_count + EXCLUDED.total_count;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER moderation_history_stats AFTER INSERT OR DELETE ON moderation_history
  FOR EACH ROW EXECUTE FUNCTION curate_moderation_stats();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_activity_count() RETURNS trigger AS $$
BEGIN
  INSERT INTO site_counters (name, count) VALUES ('activities', CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
  ON CONFLICT (name) DO UPDATE SET count = site_counters.count + EXCLUDED.count;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER activities_count AFTER INSERT OR DELETE ON activities
  FOR EACH ROW EXECUTE FUNCTION curate_activity_count();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_feed_daily_cleanup() RETURNS trigger AS $$
BEGIN
  DELETE FROM curator_daily_stats WHERE feed_id = OLD.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER feeds_daily_cleanup AFTER DELETE ON feeds FOR EACH ROW EXECUTE FUNCTION curate_feed_daily_cleanup();
--> statement-breakpoint
-- Recomputes every kept statistic from the source rows: used after bulk loads that bypass triggers,
-- and here to fill the tables for data written before them.
CREATE OR REPLACE FUNCTION curate_rebuild_stats() RETURNS void AS $$
BEGIN
  DELETE FROM feed_user_stats;
  DELETE FROM curator_stats;
  DELETE FROM curator_daily_stats;
  DELETE FROM moderator_stats;
  DELETE FROM site_counters;
  INSERT INTO feed_user_stats (feed_id, curator_username, curator_id, submission_count, approval_count, rejection_count)
  SELECT feed_id, curator_username, max(curator_id), count(*),
    count(*) FILTER (WHERE status = 'approved'), count(*) FILTER (WHERE status = 'rejected')
  FROM submission_feeds WHERE curator_username IS NOT NULL GROUP BY feed_id, curator_username;
  INSERT INTO curator_stats (curator_username, curator_id, submission_count, approval_count, rejection_count)
  SELECT curator_username, max(curator_id), sum(submission_count), sum(approval_count), sum(rejection_count)
  FROM feed_user_stats GROUP BY curator_username;
  INSERT INTO curator_daily_stats (feed_id, curator_username, day, curator_id, submission_count, approval_count, rejection_count)
  SELECT feed_id, curator_username, (submitted_at AT TIME ZONE 'UTC')::date, max(curator_id), count(*),
    count(*) FILTER (WHERE status = 'approved'), count(*) FILTER (WHERE status = 'rejected')
  FROM submission_feeds WHERE curator_username IS NOT NULL
  GROUP BY feed_id, curator_username, (submitted_at AT TIME ZONE 'UTC')::date;
  INSERT INTO moderator_stats (moderator_account_id, approval_count, rejection_count, total_count)
  SELECT moderator_account_id, count(*) FILTER (WHERE action = 'approve'), count(*) FILTER (WHERE action = 'reject'),
    count(*)
  FROM moderation_history GROUP BY moderator_account_id;
  INSERT INTO site_counters (name, count) SELECT 'activities', count(*) FROM activities;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT curate_rebuild_stats();
