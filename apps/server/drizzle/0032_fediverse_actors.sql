CREATE TABLE "fediverse_actors" (
	"feed_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"public_key" jsonb NOT NULL,
	"private_key" jsonb NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fediverse_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"inbox" text NOT NULL,
	"activity_id" text NOT NULL,
	"activity" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fediverse_followers" (
	"feed_id" text NOT NULL,
	"actor_uri" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"follow_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_followers_feed_id_actor_uri_pk" PRIMARY KEY("feed_id","actor_uri")
);
--> statement-breakpoint
CREATE TABLE "fediverse_kv" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fediverse_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"content" text NOT NULL,
	"url" text,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "fediverse_followers" ADD CONSTRAINT "fediverse_followers_feed_id_fediverse_actors_feed_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."fediverse_actors"("feed_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fediverse_notes" ADD CONSTRAINT "fediverse_notes_feed_id_fediverse_actors_feed_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."fediverse_actors"("feed_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fediverse_deliveries_once_idx" ON "fediverse_deliveries" USING btree ("activity_id","inbox");--> statement-breakpoint
CREATE INDEX "fediverse_deliveries_due_idx" ON "fediverse_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "fediverse_followers_created_idx" ON "fediverse_followers" USING btree ("feed_id","created_at");--> statement-breakpoint
CREATE INDEX "fediverse_kv_expires_idx" ON "fediverse_kv" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "fediverse_notes_outbox_idx" ON "fediverse_notes" USING btree ("feed_id","published_at");