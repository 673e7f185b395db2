-- Decision 0032: the demo feeds were seeded with RSS item titles that put every post "on X" ("{{author}} on X: …")
-- and author links to x.com, wrong for the Mastodon, Bluesky, Telegram and blog posts they carry. A demo feed not
-- edited since seeding takes the `{{network}}` title and the author's own page (`{{authorUrl}}`). Not edited since
-- seeding: it has no saved config version (every save through the app or API records one, creation included, and
-- seeding records none) and both templates still read exactly as the seed wrote them. Every other feed keeps its
-- owner's templates, whatever they say.
UPDATE feeds SET config = jsonb_set(
    jsonb_set(config, '{outputs,stream,distribute,0,transform,0,config,mappings,title}',
      to_jsonb('{{author}} on {{network}}: {{content | truncate:80}}'::text)),
    '{outputs,stream,distribute,0,transform,0,config,mappings,author,link}', to_jsonb('{{authorUrl}}'::text))
  WHERE id IN ('cryptonews', 'airesearch', 'near', 'opensource', 'climatetech', 'design', 'devtools', 'gaming',
      'desci', 'privacy', 'publicgoods', 'spacetech')
    AND config #>> '{outputs,stream,distribute,0,transform,0,config,mappings,title}'
      = '{{author}} on X: {{content | truncate:80}}'
    AND config #>> '{outputs,stream,distribute,0,transform,0,config,mappings,author,link}' = 'https://x.com/{{author}}'
    AND NOT EXISTS (SELECT 1 FROM feed_config_versions v WHERE v.feed_id = feeds.id);
