ALTER TABLE "moderation_history" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderation_history" ADD COLUMN "undone_by" text;--> statement-breakpoint
ALTER TABLE "processing_jobs" ADD COLUMN "not_before" timestamp with time zone;--> statement-breakpoint
-- An approval taken back inside its undo window no longer counts for its moderator.
CREATE OR REPLACE FUNCTION curate_moderation_undone() RETURNS trigger AS $$
BEGIN
  IF OLD.undone_at IS NULL AND NEW.undone_at IS NOT NULL THEN
    UPDATE moderator_stats SET
      approval_count = approval_count - (NEW.action = 'approve')::int,
      rejection_count = rejection_count - (NEW.action = 'reject')::int,
      total_count = total_count - 1
    WHERE moderator_account_id = NEW.moderator_account_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER moderation_history_undone AFTER UPDATE OF undone_at ON moderation_history
  FOR EACH ROW EXECUTE FUNCTION curate_moderation_undone();
--> statement-breakpoint
-- A deleted record that was already taken back was already subtracted.
CREATE OR REPLACE FUNCTION curate_moderation_stats() RETURNS trigger AS $$
DECLARE
  r moderation_history;
  sign int;
BEGIN
  IF TG_OP = 'INSERT' THEN r := NEW; sign := 1; ELSE r := OLD; sign := -1; END IF;
  IF r.undone_at IS NOT NULL THEN RETURN NULL; END IF;
  INSERT INTO moderator_stats (moderator_account_id, approval_count, rejection_count, total_count)
  VALUES (r.moderator_account_id, sign * (r.action = 'approve')::int, sign * (r.action = 'reject')::int, sign)
  ON CONFLICT (moderator_account_id) DO UPDATE SET
    approval_count = moderator_stats.approval_count + EXCLUDED.approval_count,
    rejection_count = moderator_stats.rejection_count + EXCLUDED.rejection_count,
    total_count = moderator_stats.total_count + EXCLUDED.total_count;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
