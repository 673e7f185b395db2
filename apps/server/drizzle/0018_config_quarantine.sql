ALTER TABLE "feeds" ADD COLUMN "secret_findings" jsonb;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "secret_findings" jsonb;