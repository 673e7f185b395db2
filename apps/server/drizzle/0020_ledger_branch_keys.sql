-- Decision 0025: a distributor branch is known by a stable key (its plugin and target, core's `branchKeys`), not by
-- its index in the plan, and re-runs look up the live publication of that key in the ledger. Steps and ledger
-- entries written before get their key here, computed exactly as `branchKeys` computes it (the migration test
-- compares both on the same configs); the functions are dropped at the end.
ALTER TABLE "processing_steps" ADD COLUMN "branch_key" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "branch_key" text;--> statement-breakpoint
-- A config value as written: text trimmed of ASCII white space, a number as its digits, anything else empty.
CREATE FUNCTION curate_key_text(value jsonb) RETURNS text AS $$
  SELECT CASE jsonb_typeof(value)
    WHEN 'string' THEN btrim(value #>> '{}', E' \t\n\r')
    WHEN 'number' THEN value #>> '{}'
    ELSE ''
  END
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- One part of a key: at most 500 characters, "%" and the separator "|" escaped.
CREATE FUNCTION curate_key_part(value text) RETURNS text AS $$
  SELECT replace(replace(left(coalesce(value, ''), 500), '%', '%25'), '|', '%7C')
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- A config key that the plugin's schema renames from an alias: the name wins when both are there.
CREATE FUNCTION curate_key_either(config jsonb, name text, alias text) RETURNS jsonb AS $$
  SELECT CASE WHEN config ? name THEN config -> name ELSE config -> alias END
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- A branch's key before telling apart entries that share it: the plugin and its target's parts.
CREATE FUNCTION curate_branch_base(plugin text, raw_config jsonb) RETURNS text AS $$
  SELECT CASE short
    WHEN 'rss' THEN '@curate/rss|' || curate_key_part(curate_key_text(config -> 'serviceUrl'))
    WHEN 'telegram' THEN '@curate/telegram|'
      || curate_key_part(curate_key_text(curate_key_either(config, 'chatId', 'channelId'))) || '|'
      || curate_key_part(curate_key_text(config -> 'messageThreadId'))
    WHEN 'discord' THEN '@curate/discord|' || CASE
      WHEN curate_key_text(config -> 'webhookUrl') <> '' THEN
        'webhook|' || curate_key_part(curate_key_text(config -> 'webhookUrl')) || '|'
        || curate_key_part(curate_key_text(config -> 'threadId'))
      ELSE 'channel|' || curate_key_part(curate_key_text(config -> 'channelId'))
    END
    WHEN 'notion' THEN '@curate/notion|'
      || curate_key_part(replace(lower(curate_key_text(config -> 'databaseId')), '-', ''))
    WHEN 'supabase' THEN '@curate/supabase|'
      || curate_key_part(curate_key_text(curate_key_either(config, 'url', 'supabaseUrl'))) || '|'
      || curate_key_part(curate_key_text(config -> 'schema')) || '|'
      || curate_key_part(curate_key_text(curate_key_either(config, 'table', 'tableName')))
    WHEN 'near-social' THEN '@curate/near-social|'
      || curate_key_part(curate_key_text(config -> 'accountId')) || '|'
      || curate_key_part(curate_key_text(config -> 'networkId'))
    WHEN 'crosspost' THEN '@curate/crosspost|'
      || curate_key_part(curate_key_text(config -> 'signerId')) || '|'
      || CASE WHEN jsonb_typeof(config -> 'targets') = 'array' THEN (
        SELECT coalesce(string_agg(
          curate_key_part(lower(curate_key_text(target.value -> 'platform'))) || ':'
            || curate_key_part(curate_key_text(target.value -> 'userId')),
          ',' ORDER BY target.ordinality), '')
        FROM jsonb_array_elements(config -> 'targets') WITH ORDINALITY AS target(value, ordinality)
      ) ELSE '' END
    WHEN 'webhook' THEN '@curate/webhook|' || curate_key_part(curate_key_text(config -> 'url'))
    WHEN '' THEN btrim(coalesce(plugin, ''), E' \t\n\r')
    ELSE '@curate/' || short
  END
  FROM (
    SELECT coalesce(substring(lower(btrim(coalesce(plugin, ''), E' \t\n\r'))
      FROM '^(?:@curate/|@curatedotfun/)?(object-transform|simple-transform|ai-transform|rss|telegram|discord|notion|supabase|near-social|crosspost|webhook|x-source|bluesky-source|mastodon-source|rss-source|test-source)$'), '') AS short,
      CASE WHEN jsonb_typeof(raw_config) = 'object' THEN raw_config ELSE '{}'::jsonb END AS config
  ) AS named
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- Each branch of each job's plan, keyed; entries sharing a key are told apart by their order among themselves.
WITH based AS (
  SELECT job.id AS job_id, (branch.ordinality - 1)::int AS branch, branch.ordinality,
    curate_branch_base(branch.value -> 'distributor' ->> 'plugin', branch.value -> 'distributor' -> 'config') AS base
  FROM processing_jobs job
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(job.plan -> 'branches') = 'array' THEN job.plan -> 'branches' ELSE '[]'::jsonb END
  ) WITH ORDINALITY AS branch(value, ordinality)
), keyed AS (
  SELECT job_id, branch, base || CASE
    WHEN row_number() OVER (PARTITION BY job_id, base ORDER BY ordinality) > 1
      THEN '#' || row_number() OVER (PARTITION BY job_id, base ORDER BY ordinality)
    ELSE ''
  END AS key
  FROM based
)
UPDATE "processing_steps" SET "branch_key" = keyed.key
FROM keyed
WHERE "processing_steps"."job_id" = keyed.job_id AND "processing_steps"."branch" = keyed.branch
  AND "processing_steps"."type" <> 'retraction';
--> statement-breakpoint
UPDATE "publications" SET "branch_key" = step."branch_key"
FROM "processing_steps" step
WHERE step."id" = "publications"."step_id" AND step."branch_key" IS NOT NULL;
--> statement-breakpoint
UPDATE "publications" SET "branch_key" = curate_branch_base("plugin_name", "config") WHERE "branch_key" IS NULL;
--> statement-breakpoint
ALTER TABLE "publications" ALTER COLUMN "branch_key" SET NOT NULL;--> statement-breakpoint
DROP FUNCTION curate_branch_base(text, jsonb);--> statement-breakpoint
DROP FUNCTION curate_key_either(jsonb, text, text);--> statement-breakpoint
DROP FUNCTION curate_key_part(text);--> statement-breakpoint
DROP FUNCTION curate_key_text(jsonb);--> statement-breakpoint
CREATE INDEX "publications_live_branch_idx" ON "publications" USING btree ("submission_id","feed_id","branch_key","published_at") WHERE "publications"."status" = 'published';
