CREATE TABLE "moderation_log_checks" (
	"feed_id" text PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"checked_through" bigint,
	"broken_at" bigint,
	"problem" text
);
--> statement-breakpoint
CREATE TABLE "moderation_log_entries" (
	"feed_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"action" text NOT NULL,
	"via" text NOT NULL,
	"network" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"fields" jsonb NOT NULL,
	"actor_account" text,
	"actor_handle" text,
	"submission_id" text,
	CONSTRAINT "moderation_log_entries_feed_id_seq_pk" PRIMARY KEY("feed_id","seq")
);
--> statement-breakpoint
CREATE TABLE "moderation_log_heads" (
	"feed_id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_log_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_log_signatures" (
	"feed_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "moderation_log_signatures_feed_id_seq_pk" PRIMARY KEY("feed_id","seq")
);
--> statement-breakpoint
ALTER TABLE "moderation_log_checks" ADD CONSTRAINT "moderation_log_checks_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log_entries" ADD CONSTRAINT "moderation_log_entries_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log_heads" ADD CONSTRAINT "moderation_log_heads_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_log_signatures" ADD CONSTRAINT "moderation_log_signatures_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_log_entries_action_idx" ON "moderation_log_entries" USING btree ("feed_id","action","seq");