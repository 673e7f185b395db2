-- from 0012_lists_at_a_million.sql (million)
CREATE TABLE "curator_monthly_stats" (
	"month" date NOT NULL,
	"curator_username" text NOT NULL,
	"scope" text NOT NULL,
	"curator_id" text,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"approval_count" integer DEFAULT 0 NOT NULL,
	"rejection_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "curator_monthly_stats_month_curator_username_scope_pk" PRIMARY KEY("month","curator_username","scope")
);
--> statement-breakpoint
CREATE INDEX "curator_monthly_stats_rank_idx" ON "curator_monthly_stats" USING btree ("scope","month","submission_count" DESC NULLS LAST,"approval_count" DESC NULLS LAST,"curator_username");--> statement-breakpoint
CREATE INDEX "submissions_username_prefix_idx" ON "submissions" USING btree ((lower("username") collate "C"));--> statement-breakpoint
CREATE INDEX "submissions_curator_username_prefix_idx" ON "submissions" USING btree ((lower("curator_username") collate "C"));--> statement-breakpoint
-- The monthly roll-up is kept with the daily rows, by the same function (docs/decisions/0004): one statement for
-- the curator's row in the feed, across feeds, and the feed's total for the month.
CREATE OR REPLACE FUNCTION curate_bump_curator(
  p_feed text, p_curator text, p_curator_id text, p_day date, p_submissions int, p_approvals int, p_rejections int
) RETURNS void AS $$
DECLARE
  v_month date := date_trunc('month', p_day)::date;
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
  INSERT INTO curator_daily_stats (feed_id, curator_username, day, curator_id, submission_count, approval_count, rejection_count)
  VALUES (p_feed, p_curator, p_day, p_curator_id, p_submissions, p_approvals, p_rejections)
  ON CONFLICT (day, feed_id, curator_username) DO UPDATE SET
    submission_count = curator_daily_stats.submission_count + EXCLUDED.submission_count,
    approval_count = curator_daily_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = curator_daily_stats.rejection_count + EXCLUDED.rejection_count;
  -- A feed being deleted takes its per-feed rows with it (foreign key cascade, or curate_feed_daily_cleanup);
  -- nothing to add back there. The curator's row across feeds loses the links as curator_stats does.
  v_feed_exists := EXISTS (SELECT 1 FROM feeds WHERE id = p_feed);
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
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_rebuild_stats() RETURNS void AS $$
BEGIN
  DELETE FROM feed_user_stats;
  DELETE FROM curator_stats;
  DELETE FROM curator_daily_stats;
  DELETE FROM curator_monthly_stats;
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
  PERFORM curate_rebuild_monthly_stats();
  INSERT INTO moderator_stats (moderator_account_id, approval_count, rejection_count, total_count)
  SELECT moderator_account_id, count(*) FILTER (WHERE action = 'approve'), count(*) FILTER (WHERE action = 'reject'),
    count(*)
  FROM moderation_history GROUP BY moderator_account_id;
  INSERT INTO site_counters (name, count) SELECT 'activities', count(*) FROM activities;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The monthly roll-up from the daily rows (which hold every link with a curator).
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
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT curate_rebuild_monthly_stats();
--> statement-breakpoint
-- from 0012_recaps.sql (recaps)
CREATE TABLE "recap_states" (
	"feed_id" text NOT NULL,
	"recap_id" text NOT NULL,
	"last_slot_at" timestamp with time zone NOT NULL,
	"covered_until" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recap_states_feed_id_recap_id_pk" PRIMARY KEY("feed_id","recap_id")
);
--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "recap_id" text;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recap_states" ADD CONSTRAINT "recap_states_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "processing_jobs_recap_idx" ON "processing_jobs" USING btree ("feed_id","created_at") WHERE "processing_jobs"."recap_id" is not null;
--> statement-breakpoint
-- from 0012_bulk_runs.sql (bulkall)
CREATE TABLE "bulk_run_items" (
	"run_id" text NOT NULL,
	"position" integer NOT NULL,
	"submission_id" text NOT NULL,
	"outcome" text,
	CONSTRAINT "bulk_run_items_run_id_position_pk" PRIMARY KEY("run_id","position")
);
--> statement-breakpoint
CREATE TABLE "bulk_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"action" text NOT NULL,
	"note" text,
	"query" text,
	"requested_by" text NOT NULL,
	"source" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"decided" integer DEFAULT 0 NOT NULL,
	"already_decided" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"undone" integer DEFAULT 0 NOT NULL,
	"first_undo_until" timestamp with time zone,
	"last_undo_until" timestamp with time zone,
	"error" text,
	"queued_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD CONSTRAINT "bulk_run_items_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_runs_feed_idx" ON "bulk_runs" USING btree ("feed_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_runs_one_active_per_feed_idx" ON "bulk_runs" USING btree ("feed_id") WHERE "bulk_runs"."state" in ('queued', 'running');
--> statement-breakpoint
-- from 0013_config_versions.sql (bulkall)
CREATE TABLE "feed_config_versions" (
	"feed_id" text NOT NULL,
	"version" integer NOT NULL,
	"config" jsonb NOT NULL,
	"kind" text NOT NULL,
	"restored_from" integer,
	"saved_by" text,
	"channels_changed" boolean DEFAULT false NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"change_count" integer DEFAULT 0 NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_config_versions_feed_id_version_pk" PRIMARY KEY("feed_id","version")
);
--> statement-breakpoint
ALTER TABLE "feed_config_versions" ADD CONSTRAINT "feed_config_versions_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every feed saved before the history existed starts it with its config as it stands.
INSERT INTO "feed_config_versions" ("feed_id", "version", "config", "kind", "saved_by", "saved_at")
SELECT "id", 1, "config", 'created', "created_by", "updated_at" FROM "feeds";
--> statement-breakpoint
-- from 0012_publish_ledger.sql (ledger)
CREATE TABLE "publications" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text,
	"feed_id" text NOT NULL,
	"job_id" text NOT NULL,
	"step_id" text NOT NULL,
	"branch" integer NOT NULL,
	"plugin_name" text NOT NULL,
	"step_name" text,
	"config" jsonb,
	"reference_kind" text NOT NULL,
	"reference_id" text,
	"reference_url" text,
	"receipt" jsonb,
	"status" text DEFAULT 'published' NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retracted_at" timestamp with time zone,
	"retraction_job_id" text,
	"retraction_note" text
);
--> statement-breakpoint
ALTER TABLE "moderation_history" ADD COLUMN "retraction" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_submission_id_submissions_tweet_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("tweet_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_job_id_processing_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."processing_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publications_step_idx" ON "publications" USING btree ("step_id");--> statement-breakpoint
CREATE INDEX "publications_submission_feed_idx" ON "publications" USING btree ("submission_id","feed_id","published_at");--> statement-breakpoint
CREATE INDEX "publications_job_idx" ON "publications" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "publications_retraction_job_idx" ON "publications" USING btree ("retraction_job_id") WHERE "publications"."retraction_job_id" is not null;--> statement-breakpoint
CREATE INDEX "processing_jobs_retraction_idx" ON "processing_jobs" USING btree ("feed_id","submission_id") WHERE "processing_jobs"."kind" = 'retraction';
--> statement-breakpoint
-- Sends made before the ledger existed: every succeeded distribution step, with the reference its output names.
INSERT INTO "publications" ("id", "submission_id", "feed_id", "job_id", "step_id", "branch", "plugin_name",
  "step_name", "config", "reference_kind", "reference_id", "reference_url", "receipt", "published_at")
SELECT s.id, j.submission_id, j.feed_id, j.id, s.id, coalesce(s.branch, 0), s.plugin_name, s.step_name, s.config,
  coalesce(s.output->'reference'->>'kind', s.plugin_name), s.output->'reference'->>'id',
  s.output->'reference'->>'url', s.output, coalesce(s.completed_at, s.updated_at)
FROM "processing_steps" s JOIN "processing_jobs" j ON j.id = s.job_id
WHERE s.type = 'distribution' AND s.status = 'success'
ON CONFLICT DO NOTHING;
