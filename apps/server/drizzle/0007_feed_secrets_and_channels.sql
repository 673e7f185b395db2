CREATE TABLE "channel_pauses" (
	"feed_id" text NOT NULL,
	"channel_key" text NOT NULL,
	"plugin_name" text NOT NULL,
	"step_name" text,
	"code" text NOT NULL,
	"message" text NOT NULL,
	"job_id" text,
	"paused_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_pauses_feed_id_channel_key_pk" PRIMARY KEY("feed_id","channel_key")
);
--> statement-breakpoint
CREATE TABLE "channel_slots" (
	"key" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_secrets" (
	"feed_id" text NOT NULL,
	"name" text NOT NULL,
	"sealed" text NOT NULL,
	"key_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_secrets_feed_id_name_pk" PRIMARY KEY("feed_id","name")
);
--> statement-breakpoint
ALTER TABLE "channel_pauses" ADD CONSTRAINT "channel_pauses_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_secrets" ADD CONSTRAINT "feed_secrets_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feed_secrets_key_id_idx" ON "feed_secrets" USING btree ("key_id");