-- Uploaded images were stored as absolute URLs at the PUBLIC_URL of their day (http://localhost:3000/uploads/…):
-- opened at any other address they did not load. They become their path under /uploads, which every page resolves
-- against its own address. Only references to uploads this installation holds change: an image another server
-- hosts at an /uploads/ path of its own stays where it is.
CREATE FUNCTION curate_upload_path(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT substring(value from '^https?://[^/?#]+(/uploads/[0-9a-f]{64}\.(?:png|jpg|gif|webp|svg))$')
$$;--> statement-breakpoint
UPDATE feeds SET image = curate_upload_path(image)
  WHERE curate_upload_path(image) IS NOT NULL
    AND EXISTS (SELECT 1 FROM uploads u WHERE u.hash = substring(curate_upload_path(feeds.image) from 10 for 64));--> statement-breakpoint
UPDATE feeds SET config = jsonb_set(config, '{image}', to_jsonb(curate_upload_path(config->>'image')))
  WHERE curate_upload_path(config->>'image') IS NOT NULL
    AND EXISTS (SELECT 1 FROM uploads u WHERE u.hash = substring(curate_upload_path(feeds.config->>'image') from 10 for 64));--> statement-breakpoint
UPDATE feed_config_versions SET config = jsonb_set(config, '{image}', to_jsonb(curate_upload_path(config->>'image')))
  WHERE curate_upload_path(config->>'image') IS NOT NULL
    AND EXISTS (SELECT 1 FROM uploads u WHERE u.hash = substring(curate_upload_path(feed_config_versions.config->>'image') from 10 for 64));--> statement-breakpoint
UPDATE users SET profile_image = curate_upload_path(profile_image)
  WHERE curate_upload_path(profile_image) IS NOT NULL
    AND EXISTS (SELECT 1 FROM uploads u WHERE u.hash = substring(curate_upload_path(users.profile_image) from 10 for 64));--> statement-breakpoint
DROP FUNCTION curate_upload_path(text);
