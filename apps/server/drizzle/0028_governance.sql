CREATE TABLE "curator_trust" (
	"feed_id" text NOT NULL,
	"person_key" text NOT NULL,
	"curator" text NOT NULL,
	"account" text,
	"trusted" boolean NOT NULL,
	"pinned" text,
	"approved" integer DEFAULT 0 NOT NULL,
	"decided" integer DEFAULT 0 NOT NULL,
	"explanation" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"evaluated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "curator_trust_feed_id_person_key_pk" PRIMARY KEY("feed_id","person_key")
);
--> statement-breakpoint
CREATE TABLE "moderation_votes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"voter_key" text NOT NULL,
	"voter_label" text NOT NULL,
	"moderator_account_id" text NOT NULL,
	"moderator_account_id_type" text NOT NULL,
	"action" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "curator_trust" ADD CONSTRAINT "curator_trust_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_votes" ADD CONSTRAINT "moderation_votes_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_votes" ADD CONSTRAINT "moderation_votes_submission_id_submissions_tweet_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("tweet_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "curator_trust_feed_idx" ON "curator_trust" USING btree ("feed_id","trusted","changed_at");--> statement-breakpoint
CREATE INDEX "curator_trust_curator_idx" ON "curator_trust" USING btree ("curator");--> statement-breakpoint
CREATE INDEX "curator_trust_account_idx" ON "curator_trust" USING btree ("account");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_votes_current_idx" ON "moderation_votes" USING btree ("feed_id","submission_id","voter_key") WHERE withdrawn_at is null;--> statement-breakpoint
CREATE INDEX "moderation_votes_link_idx" ON "moderation_votes" USING btree ("submission_id","feed_id");