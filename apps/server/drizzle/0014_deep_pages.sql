CREATE TABLE "submission_day_counts" (
	"scope" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "submission_day_counts_scope_day_status_pk" PRIMARY KEY("scope","day","status")
);
--> statement-breakpoint
-- Counts per UTC day beside the totals (docs/decisions/0020), kept by the same triggers in the writing transaction.
CREATE OR REPLACE FUNCTION curate_bump_count(p_scope text, p_status text, p_at timestamptz, p_delta bigint) RETURNS void AS $$
BEGIN
  INSERT INTO submission_counts (scope, status, count) VALUES (p_scope, p_status, p_delta)
  ON CONFLICT (scope, status) DO UPDATE SET count = submission_counts.count + EXCLUDED.count;
  INSERT INTO submission_day_counts (scope, day, status, count)
  VALUES (p_scope, (p_at AT TIME ZONE 'UTC')::date, p_status, p_delta)
  ON CONFLICT (scope, day, status) DO UPDATE SET count = submission_day_counts.count + EXCLUDED.count;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_submissions_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM curate_bump_count('*', NEW.status, NEW.submitted_at, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM curate_bump_count('*', OLD.status, OLD.submitted_at, -1);
  ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.submitted_at IS DISTINCT FROM OLD.submitted_at THEN
    PERFORM curate_bump_count('*', OLD.status, OLD.submitted_at, -1);
    PERFORM curate_bump_count('*', NEW.status, NEW.submitted_at, 1);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER submissions_count ON submissions;
--> statement-breakpoint
CREATE TRIGGER submissions_count AFTER INSERT OR DELETE OR UPDATE OF status, submitted_at ON submissions
  FOR EACH ROW EXECUTE FUNCTION curate_submissions_count();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_submission_feeds_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM curate_bump_count(NEW.feed_id, NEW.status, NEW.submitted_at, 1);
    PERFORM curate_refresh_submission_status(NEW.submission_id);
  ELSIF TG_OP = 'DELETE' THEN
    -- A link deleted with its feed (cascaded, after curate_feed_deleted has run): the feed's counters
    -- are gone with the feed, and counting the link down would leave negative rows for a feed of the same name.
    IF EXISTS (SELECT 1 FROM feeds WHERE id = OLD.feed_id) THEN
      PERFORM curate_bump_count(OLD.feed_id, OLD.status, OLD.submitted_at, -1);
    END IF;
    PERFORM curate_refresh_submission_status(OLD.submission_id);
  ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.submitted_at IS DISTINCT FROM OLD.submitted_at THEN
    PERFORM curate_bump_count(OLD.feed_id, OLD.status, OLD.submitted_at, -1);
    PERFORM curate_bump_count(NEW.feed_id, NEW.status, NEW.submitted_at, 1);
    IF NEW.status IS DISTINCT FROM OLD.status THEN
      PERFORM curate_refresh_submission_status(NEW.submission_id);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER submission_feeds_changed ON submission_feeds;
--> statement-breakpoint
CREATE TRIGGER submission_feeds_changed AFTER INSERT OR DELETE OR UPDATE OF status, submitted_at ON submission_feeds
  FOR EACH ROW EXECUTE FUNCTION curate_submission_feeds_changed();
--> statement-breakpoint
DROP FUNCTION curate_bump_count(text, text, bigint);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_feed_deleted() RETURNS trigger AS $$
BEGIN
  DELETE FROM submission_counts WHERE scope = OLD.id;
  DELETE FROM submission_day_counts WHERE scope = OLD.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Both counters from the rows, as the triggers keep them: for a bulk load that skipped the triggers.
CREATE OR REPLACE FUNCTION curate_rebuild_submission_counts() RETURNS void AS $$
BEGIN
  DELETE FROM submission_counts;
  DELETE FROM submission_day_counts;
  INSERT INTO submission_day_counts (scope, day, status, count)
  SELECT '*', (submitted_at AT TIME ZONE 'UTC')::date, status, count(*) FROM submissions GROUP BY 2, 3
  UNION ALL
  SELECT feed_id, (submitted_at AT TIME ZONE 'UTC')::date, status, count(*) FROM submission_feeds GROUP BY 1, 2, 3;
  INSERT INTO submission_counts (scope, status, count)
  SELECT scope, status, sum(count) FROM submission_day_counts GROUP BY scope, status;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT curate_rebuild_submission_counts();
