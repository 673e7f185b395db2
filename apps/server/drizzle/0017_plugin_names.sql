CREATE TABLE "plugin_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"plugin_id" integer,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "plugin_notices" ADD CONSTRAINT "plugin_notices_plugin_id_plugins_id_fk" FOREIGN KEY ("plugin_id") REFERENCES "public"."plugins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plugin_notices_account_idx" ON "plugin_notices" USING btree ("account_id","created_at") WHERE "plugin_notices"."dismissed_at" is null;--> statement-breakpoint
-- Decision 0022: registered plugins are named @scope/name, and no registration may hold a built-in's name, alias
-- or short name. Every registration not in that form (or in the reserved scopes curate and curatedotfun) becomes
-- @<owner's scope>/<its name>, the feeds naming it follow, and the owners are told (plugin_notices).
--
-- An account's scope: lower case, each run of other characters than a-z and 0-9 one hyphen, no hyphen at either
-- end, at most 39 characters ("alice.near" → "alice-near"; a 64-hex implicit account → its first 39 hex digits);
-- "curate" and "curatedotfun" get "-user" appended; no owner at all is "unowned".
CREATE FUNCTION curate_plugin_scope_of(account text) RETURNS text AS $$
  SELECT CASE
    WHEN scope = '' THEN 'unowned'
    WHEN scope IN ('curate', 'curatedotfun') THEN scope || '-user'
    ELSE scope
  END
  FROM (
    SELECT trim(BOTH '-' FROM left(trim(BOTH '-' FROM regexp_replace(lower(coalesce(account, '')), '[^a-z0-9]+', '-', 'g')), 39)) AS scope
  ) AS mapped
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- A name's own part: without any old scope, lower case, each run of characters a name may not hold one hyphen,
-- starting and ending with a letter or digit, at most 50 characters ("@Bad/X" → "x", "webhook" → "webhook").
CREATE FUNCTION curate_plugin_base_of(name text) RETURNS text AS $$
  SELECT CASE WHEN base = '' THEN 'plugin' ELSE base END
  FROM (
    SELECT regexp_replace(left(regexp_replace(regexp_replace(regexp_replace(lower(trim(name)), '^@[^/]*/', ''), '[^a-z0-9._-]+', '-', 'g'), '^[^a-z0-9]+', ''), 50), '[^a-z0-9]+$', '') AS base
  ) AS mapped
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- The plugin names a feed config or a job's plan holds, walking only the places that name plugins (sources, stream
-- and recap transforms, distributors and their transforms; a plan's transforms, branches and distributors), never
-- into a step's own config.
CREATE FUNCTION curate_plugin_names_in(node jsonb) RETURNS SETOF text AS $$
DECLARE
  entry record;
BEGIN
  IF jsonb_typeof(node) = 'array' THEN
    FOR entry IN SELECT value FROM jsonb_array_elements(node) LOOP
      RETURN QUERY SELECT curate_plugin_names_in(entry.value);
    END LOOP;
  ELSIF jsonb_typeof(node) = 'object' THEN
    FOR entry IN SELECT key, value FROM jsonb_each(node) LOOP
      IF entry.key = 'plugin' AND jsonb_typeof(entry.value) = 'string' THEN
        RETURN NEXT entry.value #>> '{}';
      ELSIF entry.key IN ('sources', 'outputs', 'stream', 'recap', 'transform', 'batchTransform', 'distribute',
                          'transforms', 'branches', 'distributor') THEN
        RETURN QUERY SELECT curate_plugin_names_in(entry.value);
      END IF;
    END LOOP;
  END IF;
END
$$ LANGUAGE plpgsql IMMUTABLE;
--> statement-breakpoint
-- The same places, each plugin name found in `renames` (lower-cased old name → new name) replaced.
CREATE FUNCTION curate_plugin_names_renamed(node jsonb, renames jsonb) RETURNS jsonb AS $$
DECLARE
  entry record;
  result jsonb;
  replaced jsonb;
BEGIN
  IF jsonb_typeof(node) = 'array' THEN
    SELECT coalesce(jsonb_agg(curate_plugin_names_renamed(items.item, renames) ORDER BY items.ordinal), '[]'::jsonb)
      INTO result
      FROM jsonb_array_elements(node) WITH ORDINALITY AS items(item, ordinal);
    RETURN result;
  ELSIF jsonb_typeof(node) = 'object' THEN
    result := '{}'::jsonb;
    FOR entry IN SELECT key, value FROM jsonb_each(node) LOOP
      replaced := entry.value;
      IF entry.key = 'plugin' AND jsonb_typeof(replaced) = 'string' THEN
        replaced := coalesce(renames -> lower(trim(replaced #>> '{}')), replaced);
      ELSIF entry.key IN ('sources', 'outputs', 'stream', 'recap', 'transform', 'batchTransform', 'distribute',
                          'transforms', 'branches', 'distributor') THEN
        replaced := curate_plugin_names_renamed(replaced, renames);
      END IF;
      result := result || jsonb_build_object(entry.key, replaced);
    END LOOP;
    RETURN result;
  END IF;
  RETURN node;
END
$$ LANGUAGE plpgsql IMMUTABLE;
--> statement-breakpoint
DO $$
DECLARE
  registration record;
  wanted text;
  candidate text;
  attempt integer;
  renames jsonb;
BEGIN
  CREATE TEMPORARY TABLE plugin_renames (
    plugin_id integer PRIMARY KEY,
    old_name text NOT NULL,
    new_name text NOT NULL,
    owner text,
    -- Whether feeds naming the old name ran this registration: not when the old code read that name as a built-in.
    follows boolean NOT NULL
  ) ON COMMIT DROP;

  -- In registration order, so who keeps "-2" when two renames meet is decided the same way everywhere.
  FOR registration IN
    SELECT id, name, created_by FROM plugins
    WHERE name !~ '^@[a-z0-9][a-z0-9-]{0,38}/[a-z0-9][a-z0-9._-]*$'
       OR split_part(substr(name, 2), '/', 1) IN ('curate', 'curatedotfun')
    ORDER BY id
  LOOP
    wanted := '@' || curate_plugin_scope_of(registration.created_by) || '/' || curate_plugin_base_of(registration.name);
    candidate := wanted;
    attempt := 1;
    WHILE EXISTS (SELECT 1 FROM plugins WHERE lower(name) = candidate AND id <> registration.id) LOOP
      attempt := attempt + 1;
      candidate := wanted || '-' || attempt;
    END LOOP;
    UPDATE plugins SET name = candidate, updated_at = now() WHERE id = registration.id;
    INSERT INTO plugin_renames VALUES (
      registration.id,
      registration.name,
      candidate,
      nullif(lower(registration.created_by), ''),
      -- The names the code before this migration read as built-ins (its alias table, frozen here).
      lower(trim(registration.name)) <> ALL (ARRAY[
        '@curate/object-transform', '@curatedotfun/object-transform', '@curate/simple-transform',
        '@curatedotfun/simple-transform', '@curate/ai-transform', '@curatedotfun/ai-transform', '@curate/rss',
        '@curatedotfun/rss', '@curate/telegram', '@curatedotfun/telegram', '@curate/discord',
        '@curatedotfun/discord', '@curate/notion', '@curatedotfun/notion', '@curate/supabase',
        '@curatedotfun/supabase', '@curate/near-social', '@curatedotfun/near-social', '@curate/crosspost',
        '@curatedotfun/crosspost', '@curate/webhook', '@curatedotfun/webhook', '@curate/x-source',
        '@curatedotfun/x-source', '@curate/twitter-source', '@curatedotfun/twitter-source',
        '@curatedotfun/twitter', 'twitter', 'x', '@curate/bluesky-source', '@curatedotfun/bluesky-source',
        'bluesky', '@curate/mastodon-source', '@curatedotfun/mastodon-source', 'mastodon', '@curate/rss-source',
        '@curatedotfun/rss-source', 'rss-feed', '@curate/test-source', '@curatedotfun/test-source', 'test'
      ])
    );
  END LOOP;

  IF NOT EXISTS (SELECT 1 FROM plugin_renames) THEN
    RETURN;
  END IF;

  SELECT jsonb_object_agg(lower(trim(old_name)), new_name) INTO renames FROM plugin_renames WHERE follows;
  renames := coalesce(renames, '{}'::jsonb);

  -- Which feeds named which renamed plugin, before their configs change.
  CREATE TEMPORARY TABLE plugin_rename_feeds ON COMMIT DROP AS
    SELECT DISTINCT feeds.id AS feed_id, plugin_renames.plugin_id
    FROM feeds
    CROSS JOIN LATERAL curate_plugin_names_in(feeds.config) AS named(name)
    JOIN plugin_renames ON plugin_renames.follows AND lower(trim(named.name)) = lower(trim(plugin_renames.old_name));

  -- Feeds and every saved version (a restore replays one), jobs' plans (a retry replays one), and the names steps,
  -- ledger entries and paused channels were recorded under (a resume, a retraction and resuming the channel look
  -- them up by name).
  IF renames <> '{}'::jsonb THEN
    UPDATE feeds SET config = curate_plugin_names_renamed(config, renames), updated_at = now()
      WHERE id IN (SELECT feed_id FROM plugin_rename_feeds);
    UPDATE feed_config_versions SET config = curate_plugin_names_renamed(config, renames)
      WHERE EXISTS (
        SELECT 1 FROM curate_plugin_names_in(config) AS named(name)
        WHERE (renames -> lower(trim(named.name))) IS NOT NULL
      );
    UPDATE processing_jobs SET plan = curate_plugin_names_renamed(plan, renames)
      WHERE plan IS NOT NULL AND EXISTS (
        SELECT 1 FROM curate_plugin_names_in(plan) AS named(name)
        WHERE (renames -> lower(trim(named.name))) IS NOT NULL
      );
    UPDATE processing_steps SET plugin_name = renames ->> lower(trim(plugin_name))
      WHERE (renames -> lower(trim(plugin_name))) IS NOT NULL;
    UPDATE publications SET plugin_name = renames ->> lower(trim(plugin_name))
      WHERE (renames -> lower(trim(plugin_name))) IS NOT NULL;
    UPDATE channel_pauses
      SET channel_key = (renames ->> lower(trim(plugin_name))) || substr(channel_key, length(plugin_name) + 1),
          plugin_name = renames ->> lower(trim(plugin_name))
      WHERE (renames -> lower(trim(plugin_name))) IS NOT NULL;
  END IF;

  -- Each renamed plugin's owner hears its new name and which feeds follow it; each owner (creator or admin) of such
  -- a feed, unless that is the plugin's owner too, hears which plugin their feed now names.
  INSERT INTO plugin_notices (account_id, kind, plugin_id, data)
  SELECT plugin_renames.owner, 'plugin_renamed', plugin_renames.plugin_id, jsonb_build_object(
    'oldName', plugin_renames.old_name,
    'newName', plugin_renames.new_name,
    'feedIds', coalesce(
      (SELECT jsonb_agg(feed_id ORDER BY feed_id) FROM plugin_rename_feeds WHERE plugin_id = plugin_renames.plugin_id),
      '[]'::jsonb
    )
  )
  FROM plugin_renames
  WHERE plugin_renames.owner IS NOT NULL
  ORDER BY plugin_renames.plugin_id;

  INSERT INTO plugin_notices (account_id, kind, plugin_id, data)
  SELECT told.account, 'feed_plugin_renamed', plugin_renames.plugin_id, jsonb_build_object(
    'oldName', plugin_renames.old_name,
    'newName', plugin_renames.new_name,
    'feedIds', jsonb_agg(DISTINCT told.feed_id ORDER BY told.feed_id)
  )
  FROM (
    SELECT plugin_rename_feeds.plugin_id, plugin_rename_feeds.feed_id, lower(feed_owner.account) AS account
    FROM plugin_rename_feeds
    JOIN feeds ON feeds.id = plugin_rename_feeds.feed_id
    CROSS JOIN LATERAL (
      SELECT feeds.created_by
      UNION SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(feeds.admins) = 'array' THEN feeds.admins ELSE '[]'::jsonb END)
    ) AS feed_owner(account)
    WHERE coalesce(feed_owner.account, '') <> ''
  ) AS told
  JOIN plugin_renames ON plugin_renames.plugin_id = told.plugin_id
  WHERE told.account IS DISTINCT FROM plugin_renames.owner
  GROUP BY told.account, plugin_renames.plugin_id, plugin_renames.old_name, plugin_renames.new_name
  ORDER BY plugin_renames.plugin_id, told.account;
END
$$;
--> statement-breakpoint
DROP FUNCTION curate_plugin_names_renamed(jsonb, jsonb);
--> statement-breakpoint
DROP FUNCTION curate_plugin_names_in(jsonb);
--> statement-breakpoint
DROP FUNCTION curate_plugin_base_of(text);
--> statement-breakpoint
DROP FUNCTION curate_plugin_scope_of(text);
