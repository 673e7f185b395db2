CREATE TABLE "link_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "platform" text DEFAULT 'twitter' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "author_display_name" text;--> statement-breakpoint
ALTER TABLE "link_codes" ADD CONSTRAINT "link_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "link_codes_user_idx" ON "link_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "submissions_platform_submitted_at_idx" ON "submissions" USING btree ("platform","submitted_at","tweet_id");--> statement-breakpoint
CREATE INDEX "submissions_url_idx" ON "submissions" USING btree ("url");