CREATE TABLE "metric_collect_accounts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"next_due_at" timestamp with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "target_metrics_due";--> statement-breakpoint
CREATE INDEX "metric_collect_accounts_due" ON "metric_collect_accounts" USING btree ("next_due_at") WHERE "metric_collect_accounts"."next_due_at" IS NOT NULL;--> statement-breakpoint
-- Every account with targets to collect, due at its earliest (a target an older collector holds
-- is due at its lease's end, as before).
INSERT INTO "metric_collect_accounts" ("account_id", "next_due_at")
SELECT "account_id", min("next_collect_at") FROM "target_metrics"
WHERE "state" = 'collecting' GROUP BY "account_id";
