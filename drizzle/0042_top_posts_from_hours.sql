-- Top posts no longer walk an index on `engagement` (docs/analytics.md, "Top posts from the
-- hours"): every collection changed that column, so every collection wrote an entry in it. Each
-- hour's rollup keeps its targets' highest engagement instead, and top posts read the hours in
-- that order, stopping where no unread hour can beat what they found.
DROP INDEX "target_metrics_top";--> statement-breakpoint
ALTER TABLE "metric_rollups_hourly" ADD COLUMN "top_engagement" bigint;--> statement-breakpoint
UPDATE "metric_rollups_hourly" AS r SET "top_engagement" = t.top
FROM (SELECT m.account_id, to_timestamp(floor(extract(epoch FROM m.posted_at) / 3600) * 3600) AS bucket,
    max(m.engagement) AS top
  FROM target_metrics m WHERE m.engagement IS NOT NULL GROUP BY 1, 2) AS t
WHERE r.account_id = t.account_id AND r.bucket = t.bucket;--> statement-breakpoint
CREATE INDEX "metric_rollups_hourly_top" ON "metric_rollups_hourly" USING btree ("account_id","top_engagement" DESC NULLS LAST,"bucket" DESC NULLS LAST) WHERE "metric_rollups_hourly"."top_engagement" IS NOT NULL;