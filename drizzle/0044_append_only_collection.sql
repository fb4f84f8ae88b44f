-- Append-only collection (docs/analytics.md, "Append-only collection"). A collection rewrote its
-- target's `target_metrics` row (figures and schedule: a new row version with an entry in each
-- index), which alone cost what the benchmark's goal allows for the whole collection. Now a
-- collection only inserts: the history row, which is the target's latest figures, and its next
-- `metric_due` entry, deleting the entry it was claimed by.
--
-- History rows carry their engagement, for the readers that rank or sum it (filled here for each
-- target's latest row, the only one those read).
ALTER TABLE "metric_snapshots" ADD COLUMN "engagement" integer;--> statement-breakpoint
INSERT INTO "metric_snapshots" ("post_id", "account_id", "collected_at", "metrics", "engagement")
SELECT m.post_id, m.account_id, m.collected_at, m.metrics, m.engagement FROM "target_metrics" m
WHERE m.collected_at IS NOT NULL
ON CONFLICT ("post_id", "account_id", "collected_at") DO UPDATE SET "engagement" = excluded."engagement";--> statement-breakpoint
CREATE TABLE "metric_due" (
	"account_id" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"post_id" uuid NOT NULL,
	"step" integer NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"engagement" integer,
	CONSTRAINT "metric_due_account_id_due_at_post_id_pk" PRIMARY KEY("account_id","due_at","post_id")
);--> statement-breakpoint
INSERT INTO "metric_due" ("account_id", "due_at", "post_id", "step", "posted_at", "metrics", "engagement")
SELECT m.account_id, m.next_collect_at, m.post_id, m.step, m.posted_at, m.metrics, m.engagement
FROM "target_metrics" m WHERE m.state = 'collecting' AND m.next_collect_at IS NOT NULL;--> statement-breakpoint
-- A deleted target's schedule goes with it, as its history does (no foreign key: see the table).
CREATE OR REPLACE FUNCTION metric_snapshots_of_deleted_targets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM metric_snapshots s USING gone_targets g
  WHERE s.post_id = g.post_id AND s.account_id = g.account_id;
  DELETE FROM metric_due d USING gone_targets g
  WHERE d.account_id = g.account_id AND d.post_id = g.post_id;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP INDEX "target_metrics_account_due";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "step";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "next_collect_at";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "metrics";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "engagement";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "impressions";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "collected_at";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "lease_owner";--> statement-breakpoint
ALTER TABLE "target_metrics" DROP COLUMN "lease_expires_at";
