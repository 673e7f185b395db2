CREATE TABLE "intake_sources" (
	"source_key" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"feed_id" text,
	"last_poll_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"next_poll_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"open_notified_at" timestamp with time zone,
	"resolve_notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"role" text NOT NULL,
	"version" text NOT NULL,
	"running" integer DEFAULT 0 NOT NULL,
	"concurrency" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "trace_parent" text;--> statement-breakpoint
ALTER TABLE "intake_sources" ADD CONSTRAINT "intake_sources_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "intake_sources_feed_idx" ON "intake_sources" USING btree ("feed_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operation_alerts_open_idx" ON "operation_alerts" USING btree ("kind","subject") WHERE "operation_alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "operation_alerts_opened_idx" ON "operation_alerts" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "processing_jobs_open_idx" ON "processing_jobs" USING btree ("kind","created_at") WHERE "processing_jobs"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "processing_steps_completed_idx" ON "processing_steps" USING btree ("completed_at");