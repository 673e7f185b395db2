CREATE TABLE "email_days" (
	"feed_id" text NOT NULL,
	"day" date NOT NULL,
	"confirmed" integer DEFAULT 0 NOT NULL,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "email_days_feed_id_day_pk" PRIMARY KEY("feed_id","day")
);
--> statement-breakpoint
CREATE TABLE "email_deliveries" (
	"issue_id" text NOT NULL,
	"subscriber_id" text NOT NULL,
	"feed_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_deliveries_issue_id_subscriber_id_pk" PRIMARY KEY("issue_id","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "email_issues" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"job_id" text,
	"idempotency_key" text NOT NULL,
	"audience" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"recipients" integer NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_keys" (
	"id" integer PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"link_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_subscribers" (
	"id" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"address" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_suppressions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"address_hash" text NOT NULL,
	"feed_id" text,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_days" ADD CONSTRAINT "email_days_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_issue_id_email_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."email_issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_subscriber_id_email_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."email_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_issues" ADD CONSTRAINT "email_issues_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_subscribers" ADD CONSTRAINT "email_subscribers_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD CONSTRAINT "email_suppressions_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_deliveries_pending_idx" ON "email_deliveries" USING btree ("feed_id","issue_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "email_deliveries_subscriber_idx" ON "email_deliveries" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_issues_key_idx" ON "email_issues" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "email_issues_feed_idx" ON "email_issues" USING btree ("feed_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_subscribers_feed_address_idx" ON "email_subscribers" USING btree ("feed_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "email_subscribers_confirm_token_idx" ON "email_subscribers" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "email_subscribers_address_idx" ON "email_subscribers" USING btree ("address");--> statement-breakpoint
CREATE INDEX "email_subscribers_audience_idx" ON "email_subscribers" USING btree ("feed_id","status","mode");--> statement-breakpoint
CREATE INDEX "email_suppressions_hash_idx" ON "email_suppressions" USING btree ("address_hash");--> statement-breakpoint
CREATE INDEX "email_suppressions_feed_idx" ON "email_suppressions" USING btree ("feed_id","created_at");