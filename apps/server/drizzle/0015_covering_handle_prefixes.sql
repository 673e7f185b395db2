DROP INDEX "submissions_username_prefix_idx";--> statement-breakpoint
DROP INDEX "submissions_curator_username_prefix_idx";--> statement-breakpoint
-- The handle-prefix indexes again, with every column a prefix search reads (docs/decisions/0020): an index-only
-- scan counts a short search's first thousand matches without visiting the table. Not in schema.ts, which cannot
-- declare INCLUDE.
CREATE INDEX "submissions_username_prefix_idx" ON "submissions" USING btree ((lower("username") collate "C"))
  INCLUDE ("username", "tweet_id", "submitted_at", "status", "platform");
--> statement-breakpoint
CREATE INDEX "submissions_curator_username_prefix_idx" ON "submissions" USING btree ((lower("curator_username") collate "C"))
  INCLUDE ("curator_username", "tweet_id", "submitted_at", "status", "platform");
