CREATE TABLE "x_search_waits" (
	"feed_id" text PRIMARY KEY NOT NULL,
	"searches" integer NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "x_search_waits" ADD CONSTRAINT "x_search_waits_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "processing_jobs_open_acknowledgements_idx" ON "processing_jobs" USING btree ("created_at") WHERE "processing_jobs"."kind" = 'acknowledgement' and "processing_jobs"."status" in ('pending', 'processing');