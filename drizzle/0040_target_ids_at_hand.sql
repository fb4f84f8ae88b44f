-- A target's id and URL on its platform are copied into its metrics row when it is enrolled, so a
-- claim reads what to ask the platform from the rows it takes instead of looking each target up in
-- post_targets: a third of the claim's work (docs/analytics.md, "Targets' ids at hand").
ALTER TABLE "target_metrics" ADD COLUMN "platform_post_id" text;--> statement-breakpoint
ALTER TABLE "target_metrics" ADD COLUMN "url" text;--> statement-breakpoint
UPDATE "target_metrics" AS m SET "platform_post_id" = t."platform_post_id", "url" = t."url"
FROM "post_targets" t WHERE t."post_id" = m."post_id" AND t."account_id" = m."account_id";