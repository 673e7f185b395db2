ALTER TABLE "rss_items" ADD COLUMN "curator" text;--> statement-breakpoint
ALTER TABLE "rss_items" ADD COLUMN "approver" text;--> statement-breakpoint
ALTER TABLE "rss_items" ADD COLUMN "curator_note" text;--> statement-breakpoint
ALTER TABLE "rss_items" ADD COLUMN "source_url" text;--> statement-breakpoint
CREATE INDEX "rss_items_feed_id_idx" ON "rss_items" USING btree ("feed_id","id");