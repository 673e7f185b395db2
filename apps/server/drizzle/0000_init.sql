CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "activities" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"feed_id" text,
	"submission_id" text,
	"data" jsonb,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_requests" (
	"nonce" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"recipient" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "feed_user_stats" (
	"feed_id" text NOT NULL,
	"curator_username" text NOT NULL,
	"curator_id" text,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"approval_count" integer DEFAULT 0 NOT NULL,
	"rejection_count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_user_stats_feed_id_curator_username_pk" PRIMARY KEY("feed_id","curator_username")
);
--> statement-breakpoint
CREATE TABLE "feeds" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"image" text,
	"config" jsonb NOT NULL,
	"created_by" text,
	"admins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linked_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"platform_name" text NOT NULL,
	"platform_user_id" text NOT NULL,
	"username" text NOT NULL,
	"profile_image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"feed_id" text NOT NULL,
	"moderator_account_id" text NOT NULL,
	"moderator_account_id_type" text NOT NULL,
	"source" text NOT NULL,
	"action" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugins" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"repo_url" text NOT NULL,
	"entry_point" text NOT NULL,
	"schema_definition" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugins_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "processing_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"feed_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"idempotency_key" text NOT NULL,
	"retry_of_job_id" text,
	"plan" jsonb,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processing_jobs_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "processing_steps" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"step_order" integer NOT NULL,
	"type" text NOT NULL,
	"stage" text NOT NULL,
	"plugin_name" text NOT NULL,
	"step_name" text,
	"config" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"input" jsonb,
	"output" jsonb,
	"error" jsonb,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rss_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"guid" text NOT NULL,
	"title" text,
	"link" text,
	"description" text,
	"content" text,
	"image" text,
	"platform" text,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"author" text,
	"pub_date" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "source_cursors" (
	"source_key" text PRIMARY KEY NOT NULL,
	"cursor" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_counts" (
	"scope" text NOT NULL,
	"status" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "submission_counts_scope_status_pk" PRIMARY KEY("scope","status")
);
--> statement-breakpoint
CREATE TABLE "submission_feeds" (
	"submission_id" text NOT NULL,
	"feed_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"curator_id" text,
	"curator_username" text,
	"curator_notes" text,
	"curator_tweet_id" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_feeds_submission_id_feed_id_pk" PRIMARY KEY("submission_id","feed_id")
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"tweet_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"username" text NOT NULL,
	"author_profile_image" text,
	"content" text NOT NULL,
	"curator_id" text,
	"curator_username" text,
	"curator_notes" text,
	"curator_tweet_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_tweets" (
	"id" text PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"username" text NOT NULL,
	"in_reply_to_status_id" text,
	"hashtags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seq" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"hash" text PRIMARY KEY NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"extension" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"near_account_id" text NOT NULL,
	"username" text,
	"profile_image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_near_account_id_unique" UNIQUE("near_account_id")
);
--> statement-breakpoint
ALTER TABLE "feed_user_stats" ADD CONSTRAINT "feed_user_stats_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linked_accounts" ADD CONSTRAINT "linked_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_history" ADD CONSTRAINT "moderation_history_submission_id_submissions_tweet_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("tweet_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_history" ADD CONSTRAINT "moderation_history_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD CONSTRAINT "processing_jobs_submission_id_submissions_tweet_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("tweet_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD CONSTRAINT "processing_jobs_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_steps" ADD CONSTRAINT "processing_steps_job_id_processing_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."processing_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rss_items" ADD CONSTRAINT "rss_items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_feeds" ADD CONSTRAINT "submission_feeds_submission_id_submissions_tweet_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("tweet_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_feeds" ADD CONSTRAINT "submission_feeds_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_user_timestamp_idx" ON "activities" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "activities_feed_timestamp_idx" ON "activities" USING btree ("feed_id","timestamp");--> statement-breakpoint
CREATE INDEX "activities_type_timestamp_idx" ON "activities" USING btree ("type","timestamp");--> statement-breakpoint
CREATE INDEX "auth_requests_expires_idx" ON "auth_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "feed_user_stats_curator_idx" ON "feed_user_stats" USING btree ("curator_username");--> statement-breakpoint
CREATE UNIQUE INDEX "linked_accounts_platform_user_idx" ON "linked_accounts" USING btree ("platform_name","platform_user_id");--> statement-breakpoint
CREATE INDEX "linked_accounts_user_idx" ON "linked_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "linked_accounts_username_idx" ON "linked_accounts" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "moderation_history_submission_idx" ON "moderation_history" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_history_feed_idx" ON "moderation_history" USING btree ("feed_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_history_moderator_idx" ON "moderation_history" USING btree ("moderator_account_id");--> statement-breakpoint
CREATE INDEX "processing_jobs_submission_feed_idx" ON "processing_jobs" USING btree ("submission_id","feed_id","started_at");--> statement-breakpoint
CREATE INDEX "processing_steps_job_idx" ON "processing_steps" USING btree ("job_id","step_order");--> statement-breakpoint
CREATE UNIQUE INDEX "rss_items_feed_guid_idx" ON "rss_items" USING btree ("feed_id","guid");--> statement-breakpoint
CREATE INDEX "rss_items_feed_pub_date_idx" ON "rss_items" USING btree ("feed_id","pub_date");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "submission_feeds_feed_submitted_idx" ON "submission_feeds" USING btree ("feed_id","submitted_at","submission_id");--> statement-breakpoint
CREATE INDEX "submission_feeds_feed_status_submitted_idx" ON "submission_feeds" USING btree ("feed_id","status","submitted_at","submission_id");--> statement-breakpoint
CREATE INDEX "submission_feeds_curator_idx" ON "submission_feeds" USING btree ("curator_username","feed_id");--> statement-breakpoint
CREATE INDEX "submissions_submitted_at_idx" ON "submissions" USING btree ("submitted_at","tweet_id");--> statement-breakpoint
CREATE INDEX "submissions_status_submitted_at_idx" ON "submissions" USING btree ("status","submitted_at","tweet_id");--> statement-breakpoint
CREATE INDEX "submissions_curator_username_idx" ON "submissions" USING btree ("curator_username");--> statement-breakpoint
CREATE INDEX "submissions_content_trgm_idx" ON "submissions" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "submissions_username_trgm_idx" ON "submissions" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "submissions_curator_username_trgm_idx" ON "submissions" USING gin ("curator_username" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "test_tweets_seq_idx" ON "test_tweets" USING btree ("seq");