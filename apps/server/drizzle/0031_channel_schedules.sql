CREATE TABLE "scheduled_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"channel_key" text NOT NULL,
	"plugin_name" text NOT NULL,
	"submission_id" text,
	"job_id" text NOT NULL,
	"step_id" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"position" bigint NOT NULL,
	"planned_at" timestamp with time zone NOT NULL,
	"publish_now" boolean DEFAULT false NOT NULL,
	"slot_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_sends_step_id_unique" UNIQUE("step_id")
);
--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "parkings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scheduled_sends" ADD CONSTRAINT "scheduled_sends_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_sends" ADD CONSTRAINT "scheduled_sends_submission_id_submissions_tweet_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("tweet_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_sends" ADD CONSTRAINT "scheduled_sends_job_id_processing_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."processing_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_sends" ADD CONSTRAINT "scheduled_sends_step_id_processing_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."processing_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduled_sends_line_idx" ON "scheduled_sends" USING btree ("feed_id","channel_key","position") WHERE "scheduled_sends"."status" = 'waiting';--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_sends_slot_idx" ON "scheduled_sends" USING btree ("feed_id","channel_key","slot_at");--> statement-breakpoint
CREATE INDEX "scheduled_sends_job_idx" ON "scheduled_sends" USING btree ("job_id");