ALTER TABLE "processing_jobs" ALTER COLUMN "submission_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "kind" text DEFAULT 'approval' NOT NULL;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "publication_key" text;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processing_steps" ADD COLUMN "branch" integer;--> statement-breakpoint
ALTER TABLE "processing_steps" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "processing_steps" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "processing_steps" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "media" jsonb;--> statement-breakpoint
CREATE INDEX "processing_jobs_feed_status_idx" ON "processing_jobs" USING btree ("feed_id","status","completed_at");--> statement-breakpoint
CREATE INDEX "processing_jobs_outbox_idx" ON "processing_jobs" USING btree ("created_at") WHERE "processing_jobs"."queued_at" is null and "processing_jobs"."status" = 'pending';--> statement-breakpoint
-- Every post stored so far came from X or from test posts shaped like X posts.
UPDATE "submissions" SET "url" = 'https://x.com/' || "username" || '/status/' || "tweet_id" WHERE "url" IS NULL;--> statement-breakpoint
UPDATE "processing_jobs" SET "publication_key" = "idempotency_key" WHERE "publication_key" IS NULL;--> statement-breakpoint
-- Wakes the worker's relay when a processing request is written, at the writer's commit (decision 0009).
CREATE OR REPLACE FUNCTION curate_notify_processing_requested() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('curate_processing_requested', '');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER "processing_jobs_requested" AFTER INSERT ON "processing_jobs"
  FOR EACH STATEMENT EXECUTE FUNCTION curate_notify_processing_requested();
