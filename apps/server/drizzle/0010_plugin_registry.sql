ALTER TABLE "plugins" DROP CONSTRAINT "plugins_name_unique";--> statement-breakpoint
ALTER TABLE "processing_steps" ADD COLUMN "plugin_version" text;--> statement-breakpoint
CREATE UNIQUE INDEX "plugins_name_idx" ON "plugins" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "plugins_repo_url_idx" ON "plugins" USING btree (lower("repo_url"));--> statement-breakpoint
CREATE INDEX "plugins_type_idx" ON "plugins" USING btree ("type","name");