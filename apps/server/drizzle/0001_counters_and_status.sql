-- Exact per-status counts, maintained in the writing transaction (see docs/decisions/0003).
CREATE OR REPLACE FUNCTION curate_bump_count(p_scope text, p_status text, p_delta bigint) RETURNS void AS $$
BEGIN
  INSERT INTO submission_counts (scope, status, count) VALUES (p_scope, p_status, p_delta)
  ON CONFLICT (scope, status) DO UPDATE SET count = submission_counts.count + EXCLUDED.count;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_submissions_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM curate_bump_count('*', NEW.status, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM curate_bump_count('*', OLD.status, -1);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM curate_bump_count('*', OLD.status, -1);
    PERFORM curate_bump_count('*', NEW.status, 1);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER submissions_count AFTER INSERT OR DELETE OR UPDATE OF status ON submissions
  FOR EACH ROW EXECUTE FUNCTION curate_submissions_count();
--> statement-breakpoint
-- A submission's overall status follows its feed links (docs/decisions/0002): approved when any link is
-- approved, else pending while any link is pending (or it has none), else rejected.
CREATE OR REPLACE FUNCTION curate_refresh_submission_status(p_submission text) RETURNS void AS $$
BEGIN
  UPDATE submissions s SET status = agg.status, updated_at = now()
  FROM (
    SELECT CASE
      WHEN bool_or(sf.status = 'approved') THEN 'approved'
      WHEN count(*) = 0 OR bool_or(sf.status = 'pending') THEN 'pending'
      ELSE 'rejected'
    END AS status
    FROM submission_feeds sf WHERE sf.submission_id = p_submission
  ) agg
  WHERE s.tweet_id = p_submission AND s.status IS DISTINCT FROM agg.status;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_submission_feeds_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM curate_bump_count(NEW.feed_id, NEW.status, 1);
    PERFORM curate_refresh_submission_status(NEW.submission_id);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM curate_bump_count(OLD.feed_id, OLD.status, -1);
    PERFORM curate_refresh_submission_status(OLD.submission_id);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM curate_bump_count(OLD.feed_id, OLD.status, -1);
    PERFORM curate_bump_count(NEW.feed_id, NEW.status, 1);
    PERFORM curate_refresh_submission_status(NEW.submission_id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER submission_feeds_changed AFTER INSERT OR DELETE OR UPDATE OF status ON submission_feeds
  FOR EACH ROW EXECUTE FUNCTION curate_submission_feeds_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_feed_deleted() RETURNS trigger AS $$
BEGIN
  DELETE FROM submission_counts WHERE scope = OLD.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER feeds_deleted AFTER DELETE ON feeds FOR EACH ROW EXECUTE FUNCTION curate_feed_deleted();
