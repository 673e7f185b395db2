CREATE TABLE "curator_daily_stats" (
	"feed_id" text NOT NULL,
	"curator_username" text NOT NULL,
	"day" date NOT NULL,
	"curator_id" text,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"approval_count" integer DEFAULT 0 NOT NULL,
	"rejection_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "curator_daily_stats_day_feed_id_curator_username_pk" PRIMARY KEY("day","feed_id","curator_username")
);
--> statement-breakpoint
CREATE TABLE "curator_stats" (
	"curator_username" text PRIMARY KEY NOT NULL,
	"curator_id" text,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"approval_count" integer DEFAULT 0 NOT NULL,
	"rejection_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderator_stats" (
	"moderator_account_id" text PRIMARY KEY NOT NULL,
	"approval_count" integer DEFAULT 0 NOT NULL,
	"rejection_count" integer DEFAULT 0 NOT NULL,
	"total_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "curator_daily_stats_feed_day_idx" ON "curator_daily_stats" USING btree ("feed_id","day");--> statement-breakpoint
CREATE INDEX "curator_stats_rank_idx" ON "curator_stats" USING btree ("submission_count" DESC NULLS LAST,"approval_count" DESC NULLS LAST,"curator_username");--> statement-breakpoint
CREATE INDEX "moderator_stats_rank_idx" ON "moderator_stats" USING btree ("total_count" DESC NULLS LAST,"moderator_account_id");--> statement-breakpoint
CREATE INDEX "feed_user_stats_rank_idx" ON "feed_user_stats" USING btree ("feed_id","submission_count" DESC NULLS LAST,"approval_count" DESC NULLS LAST,"curator_username");