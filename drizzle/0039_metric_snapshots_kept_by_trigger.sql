-- A collection's history rows no longer check their target by foreign key. They are written only
-- by the outcome write, from the rows that same statement has just updated (and so holds), so the
-- check only cost a locking read of the target's row per collected target, about a tenth of the
-- database's work per collection (docs/analytics.md, "History without a foreign key"). What the
-- key did on delete, this trigger does: a deleted target's history goes with it.
ALTER TABLE "metric_snapshots" DROP CONSTRAINT "metric_snapshots_post_id_account_id_target_metrics_post_id_account_id_fk";--> statement-breakpoint
CREATE OR REPLACE FUNCTION metric_snapshots_of_deleted_targets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM metric_snapshots s USING gone_targets g
  WHERE s.post_id = g.post_id AND s.account_id = g.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER metric_snapshots_of_deleted_targets AFTER DELETE ON target_metrics
  REFERENCING OLD TABLE AS gone_targets
  FOR EACH STATEMENT EXECUTE FUNCTION metric_snapshots_of_deleted_targets();
