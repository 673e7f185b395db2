CREATE TABLE "approver_offers" (
	"feed_id" text NOT NULL,
	"person_key" text NOT NULL,
	"curator" text NOT NULL,
	"account" text,
	"handle_key" text,
	"status" text DEFAULT 'offered' NOT NULL,
	"explanation" text NOT NULL,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "approver_offers_feed_id_person_key_pk" PRIMARY KEY("feed_id","person_key")
);
--> statement-breakpoint
ALTER TABLE "approver_offers" ADD CONSTRAINT "approver_offers_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approver_offers_feed_idx" ON "approver_offers" USING btree ("feed_id","status");