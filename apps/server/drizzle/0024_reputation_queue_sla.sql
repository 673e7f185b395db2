CREATE TABLE "approver_reputation" (
	"scope" text NOT NULL,
	"moderator_account_id" text NOT NULL,
	"decision_count" integer DEFAULT 0 NOT NULL,
	"overturned_count" integer DEFAULT 0 NOT NULL,
	"median_decision_seconds" integer,
	CONSTRAINT "approver_reputation_scope_moderator_account_id_pk" PRIMARY KEY("scope","moderator_account_id")
);
--> statement-breakpoint
CREATE TABLE "backfill_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"done_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "curator_reputation" (
	"scope" text NOT NULL,
	"curator_username" text NOT NULL,
	"approved_count" integer DEFAULT 0 NOT NULL,
	"rejected_count" integer DEFAULT 0 NOT NULL,
	"retracted_count" integer DEFAULT 0 NOT NULL,
	"score" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "curator_reputation_scope_curator_username_pk" PRIMARY KEY("scope","curator_username")
);
--> statement-breakpoint
CREATE TABLE "feed_queue_stats" (
	"feed_id" text PRIMARY KEY NOT NULL,
	"median_decision_seconds" integer,
	"decisions_sampled" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_reminder_subscriptions" (
	"user_id" integer NOT NULL,
	"feed_id" text NOT NULL,
	"telegram" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_reminder_subscriptions_user_id_feed_id_pk" PRIMARY KEY("user_id","feed_id")
);
--> statement-breakpoint
CREATE TABLE "queue_reminders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"feed_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"waiting_since" timestamp with time zone NOT NULL,
	"telegram_status" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stat_refreshes" (
	"name" text PRIMARY KEY NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "moderation_history" ADD COLUMN "curator_username" text;--> statement-breakpoint
ALTER TABLE "moderation_history" ADD COLUMN "counts" boolean;--> statement-breakpoint
ALTER TABLE "moderation_history" ADD COLUMN "wait_seconds" integer;--> statement-breakpoint
ALTER TABLE "moderation_history" ADD COLUMN "overturned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feed_queue_stats" ADD CONSTRAINT "feed_queue_stats_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_reminder_subscriptions" ADD CONSTRAINT "queue_reminder_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_reminder_subscriptions" ADD CONSTRAINT "queue_reminder_subscriptions_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_reminders" ADD CONSTRAINT "queue_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_reminders" ADD CONSTRAINT "queue_reminders_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approver_reputation_rank_idx" ON "approver_reputation" USING btree ("scope","decision_count" DESC NULLS LAST,"moderator_account_id");--> statement-breakpoint
CREATE INDEX "curator_reputation_rank_idx" ON "curator_reputation" USING btree ("scope","score" DESC NULLS LAST,"approved_count" DESC NULLS LAST,"curator_username");--> statement-breakpoint
CREATE INDEX "queue_reminder_subscriptions_feed_idx" ON "queue_reminder_subscriptions" USING btree ("feed_id");--> statement-breakpoint
CREATE INDEX "queue_reminders_user_idx" ON "queue_reminders" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "queue_reminders_user_feed_idx" ON "queue_reminders" USING btree ("user_id","feed_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Reputation from outcomes (docs/decisions/0030). The Wilson lower bound (95 %) of `approved` out of `total`:
-- confidence-aware, so 3 of 3 does not outrank 95 of 100. Core's `wilsonLowerBound` is the same formula.
CREATE OR REPLACE FUNCTION curate_wilson_lower_bound(approved integer, total integer) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN total IS NULL OR total <= 0 THEN 0::double precision ELSE greatest(0::double precision,
    (approved::double precision / total + 3.841458820694124 / (2 * total)
      - 1.959963984540054 * sqrt(greatest(0::double precision,
          (approved::double precision / total) * (1 - approved::double precision / total) / total
          + 3.841458820694124 / (4 * total::double precision * total))))
    / (1 + 3.841458820694124 / total)) END
$$;
--> statement-breakpoint
-- The Curate account a handle key (`handleOnPlatform`: X's bare handle, `<platform>:<handle>` elsewhere) is linked
-- to; the latest proof wins, as for moderation and the leaderboard.
CREATE OR REPLACE FUNCTION curate_handle_account(p_handle text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT u.near_account_id FROM linked_accounts la JOIN users u ON u.id = la.user_id
  WHERE lower(la.username) = lower(CASE WHEN position(':' in p_handle) > 0
      THEN substr(p_handle, position(':' in p_handle) + 1) ELSE p_handle END)
    AND lower(la.platform_name) = ANY (CASE WHEN position(':' in p_handle) > 0
      THEN ARRAY[lower(split_part(p_handle, ':', 1))] ELSE ARRAY['twitter', 'x'] END)
  ORDER BY la.updated_at DESC LIMIT 1
$$;
--> statement-breakpoint
-- A decision on one's own post never counts: an auto-approval (the curator moderates the feed), or a decision by
-- the curator's handle or by the Curate account that handle is linked to.
CREATE OR REPLACE FUNCTION curate_is_self_decision(p_source text, p_moderator text, p_moderator_type text,
  p_curator text) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
DECLARE
  curator_account text;
BEGIN
  IF p_source = 'auto_approval' THEN RETURN true; END IF;
  IF p_curator IS NULL THEN RETURN false; END IF;
  IF p_moderator_type = 'platform_username' AND lower(p_moderator) = lower(p_curator) THEN RETURN true; END IF;
  curator_account := curate_handle_account(p_curator);
  IF curator_account IS NULL THEN RETURN false; END IF;
  RETURN curator_account = CASE WHEN p_moderator_type = 'near' THEN p_moderator
    ELSE curate_handle_account(p_moderator) END;
END;
$$;
--> statement-breakpoint
-- What one decision adds to its curator's and its approver's reputation. Unclassified (counts null) and undone
-- decisions add nothing; an approval overturned by a retraction counts for its approver as overturned, and no more
-- as an approval for the curator (the retraction counts as the rejection instead).
CREATE OR REPLACE FUNCTION curate_reputation_parts(p_action text, p_retraction boolean, p_counts boolean,
  p_undone timestamptz, p_overturned timestamptz,
  OUT approved int, OUT rejected int, OUT retracted int, OUT decisions int, OUT overturned int)
LANGUAGE sql IMMUTABLE AS $$
  SELECT
    (coalesce(p_counts, false) AND p_undone IS NULL AND p_action = 'approve' AND p_overturned IS NULL)::int,
    (coalesce(p_counts, false) AND p_undone IS NULL AND p_action = 'reject')::int,
    (p_counts IS NOT NULL AND p_undone IS NULL AND p_retraction)::int,
    (coalesce(p_counts, false) AND p_undone IS NULL)::int,
    (coalesce(p_counts, false) AND p_undone IS NULL AND p_action = 'approve' AND p_overturned IS NOT NULL)::int
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_reputation_apply(r moderation_history, sign int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  p record;
  scopes text[];
BEGIN
  p := curate_reputation_parts(r.action, r.retraction, r.counts, r.undone_at, r.overturned_at);
  IF p.approved = 0 AND p.rejected = 0 AND p.retracted = 0 AND p.decisions = 0 THEN RETURN; END IF;
  -- A feed being deleted takes its rows with it (feeds_reputation_cleanup); only the overall rows change.
  scopes := CASE WHEN EXISTS (SELECT 1 FROM feeds WHERE id = r.feed_id) THEN ARRAY['*', r.feed_id] ELSE ARRAY['*'] END;
  IF r.curator_username IS NOT NULL AND (p.approved <> 0 OR p.rejected <> 0 OR p.retracted <> 0) THEN
    INSERT INTO curator_reputation AS c (scope, curator_username, approved_count, rejected_count, retracted_count, score)
    SELECT s, r.curator_username, sign * p.approved, sign * p.rejected, sign * p.retracted,
      curate_wilson_lower_bound(sign * p.approved, sign * (p.approved + p.rejected))
    FROM unnest(scopes) s
    ON CONFLICT (scope, curator_username) DO UPDATE SET
      approved_count = c.approved_count + EXCLUDED.approved_count,
      rejected_count = c.rejected_count + EXCLUDED.rejected_count,
      retracted_count = c.retracted_count + EXCLUDED.retracted_count,
      score = curate_wilson_lower_bound(c.approved_count + EXCLUDED.approved_count,
        c.approved_count + EXCLUDED.approved_count + c.rejected_count + EXCLUDED.rejected_count);
  END IF;
  IF p.decisions <> 0 THEN
    INSERT INTO approver_reputation AS a (scope, moderator_account_id, decision_count, overturned_count)
    SELECT s, r.moderator_account_id, sign * p.decisions, sign * p.overturned FROM unnest(scopes) s
    ON CONFLICT (scope, moderator_account_id) DO UPDATE SET
      decision_count = a.decision_count + EXCLUDED.decision_count,
      overturned_count = a.overturned_count + EXCLUDED.overturned_count;
  END IF;
END;
$$;
--> statement-breakpoint
-- Classifies a decision as it is written: its link's curator, whether it counts, how long the link waited.
CREATE OR REPLACE FUNCTION curate_classify_decision() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  link record;
BEGIN
  -- A row that arrives classified (an archive being imported, before its links are) keeps what it was.
  IF NEW.counts IS NOT NULL THEN RETURN NEW; END IF;
  SELECT curator_username, submitted_at INTO link FROM submission_feeds
  WHERE submission_id = NEW.submission_id AND feed_id = NEW.feed_id;
  NEW.curator_username := link.curator_username;
  NEW.counts := NOT curate_is_self_decision(NEW.source, NEW.moderator_account_id, NEW.moderator_account_id_type,
    link.curator_username);
  NEW.wait_seconds := CASE WHEN NEW.retraction OR link.submitted_at IS NULL THEN NULL
    ELSE greatest(0, round(extract(epoch from NEW.created_at - link.submitted_at)))::int END;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER moderation_history_classify BEFORE INSERT ON moderation_history
  FOR EACH ROW EXECUTE FUNCTION curate_classify_decision();
--> statement-breakpoint
-- Keeps the reputation tables in the writing transaction, like the leaderboard's statistics (decision 0004). The
-- backfill classifies older rows set-based and says so with curate.reputation_bulk, adding their parts itself.
CREATE OR REPLACE FUNCTION curate_reputation_stats() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('curate.reputation_bulk', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'UPDATE' AND OLD.counts IS NOT DISTINCT FROM NEW.counts AND OLD.undone_at IS NOT DISTINCT FROM NEW.undone_at
    AND OLD.overturned_at IS NOT DISTINCT FROM NEW.overturned_at
    AND OLD.curator_username IS NOT DISTINCT FROM NEW.curator_username THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM curate_reputation_apply(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM curate_reputation_apply(NEW, 1); END IF;
  -- A retraction overturns the approval it takes back.
  IF TG_OP = 'INSERT' AND NEW.retraction THEN
    UPDATE moderation_history SET overturned_at = NEW.created_at
    WHERE id = (SELECT id FROM moderation_history
      WHERE submission_id = NEW.submission_id AND feed_id = NEW.feed_id AND action = 'approve'
        AND undone_at IS NULL AND overturned_at IS NULL AND id < NEW.id
      ORDER BY id DESC LIMIT 1);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER moderation_history_reputation
  AFTER INSERT OR DELETE OR UPDATE OF counts, undone_at, overturned_at, curator_username ON moderation_history
  FOR EACH ROW EXECUTE FUNCTION curate_reputation_stats();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION curate_feed_reputation_cleanup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM curator_reputation WHERE scope = OLD.id;
  DELETE FROM approver_reputation WHERE scope = OLD.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER feeds_reputation_cleanup AFTER DELETE ON feeds
  FOR EACH ROW EXECUTE FUNCTION curate_feed_reputation_cleanup();
--> statement-breakpoint
-- One step of the resumable backfill: classifies the decisions written before this migration among the next
-- `p_limit` ids after `p_after` and adds their parts to the reputation tables, set-based. Answers the last id it
-- looked at (null when none is left). The caller stores that cursor in the same transaction.
CREATE OR REPLACE FUNCTION curate_backfill_reputation(p_after bigint, p_limit int) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  last_id bigint;
BEGIN
  SELECT max(id) INTO last_id FROM (SELECT id FROM moderation_history WHERE id > p_after ORDER BY id LIMIT p_limit) c;
  IF last_id IS NULL THEN RETURN NULL; END IF;
  PERFORM set_config('curate.reputation_bulk', 'on', true);
  -- The self-decision rule of curate_is_self_decision, as joins: every linked handle's account, read once per chunk.
  WITH linked AS MATERIALIZED (
    SELECT DISTINCT ON (handle) handle, account FROM (
      SELECT lower(CASE lower(la.platform_name) WHEN 'twitter' THEN la.username WHEN 'x' THEN la.username
          ELSE lower(la.platform_name) || ':' || la.username END) AS handle,
        u.near_account_id AS account, la.updated_at
      FROM linked_accounts la JOIN users u ON u.id = la.user_id) keyed
    ORDER BY handle, updated_at DESC
  ), source AS (
    SELECT h.id, sf.curator_username, sf.submitted_at,
      NOT (h.source = 'auto_approval'
        OR (h.moderator_account_id_type = 'platform_username' AND lower(h.moderator_account_id) = lower(sf.curator_username))
        OR coalesce(ca.account = CASE WHEN h.moderator_account_id_type = 'near' THEN h.moderator_account_id
          ELSE ma.account END, false)) AS counts
    FROM moderation_history h
    LEFT JOIN submission_feeds sf ON sf.submission_id = h.submission_id AND sf.feed_id = h.feed_id
    LEFT JOIN linked ca ON ca.handle = lower(sf.curator_username)
    LEFT JOIN linked ma ON h.moderator_account_id_type = 'platform_username' AND ma.handle = lower(h.moderator_account_id)
    WHERE h.id > p_after AND h.id <= last_id AND h.counts IS NULL
  ), classified AS (
    UPDATE moderation_history h SET
      curator_username = s.curator_username,
      counts = s.counts,
      wait_seconds = CASE WHEN h.retraction OR s.submitted_at IS NULL THEN NULL
        ELSE greatest(0, round(extract(epoch from h.created_at - s.submitted_at)))::int END,
      -- Kept when a retraction written meanwhile already set it.
      overturned_at = coalesce(h.overturned_at, CASE WHEN h.action = 'approve' AND h.undone_at IS NULL THEN
        (SELECT min(x.created_at) FROM moderation_history x WHERE x.submission_id = h.submission_id
          AND x.feed_id = h.feed_id AND x.retraction AND x.id > h.id) END)
    FROM source s
    WHERE h.id = s.id AND h.counts IS NULL
    RETURNING h.feed_id, h.curator_username, h.moderator_account_id,
      (curate_reputation_parts(h.action, h.retraction, h.counts, h.undone_at, h.overturned_at)).*
  ), scoped AS (
    SELECT s.scope, c.* FROM classified c
    CROSS JOIN LATERAL (VALUES ('*'), (c.feed_id)) s(scope)
    WHERE s.scope = '*' OR EXISTS (SELECT 1 FROM feeds f WHERE f.id = c.feed_id)
  ), curators AS (
    INSERT INTO curator_reputation AS r (scope, curator_username, approved_count, rejected_count, retracted_count, score)
    SELECT scope, curator_username, sum(approved), sum(rejected), sum(retracted),
      curate_wilson_lower_bound(sum(approved)::int, sum(approved + rejected)::int)
    FROM scoped WHERE curator_username IS NOT NULL
    GROUP BY scope, curator_username HAVING sum(approved) + sum(rejected) + sum(retracted) > 0
    ON CONFLICT (scope, curator_username) DO UPDATE SET
      approved_count = r.approved_count + EXCLUDED.approved_count,
      rejected_count = r.rejected_count + EXCLUDED.rejected_count,
      retracted_count = r.retracted_count + EXCLUDED.retracted_count,
      score = curate_wilson_lower_bound(r.approved_count + EXCLUDED.approved_count,
        r.approved_count + EXCLUDED.approved_count + r.rejected_count + EXCLUDED.rejected_count)
  )
  INSERT INTO approver_reputation AS a (scope, moderator_account_id, decision_count, overturned_count)
  SELECT scope, moderator_account_id, sum(decisions), sum(overturned) FROM scoped
  GROUP BY scope, moderator_account_id HAVING sum(decisions) > 0
  ON CONFLICT (scope, moderator_account_id) DO UPDATE SET
    decision_count = a.decision_count + EXCLUDED.decision_count,
    overturned_count = a.overturned_count + EXCLUDED.overturned_count;
  PERFORM set_config('curate.reputation_bulk', 'off', true);
  RETURN last_id;
END;
$$;
