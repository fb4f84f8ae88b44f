ALTER TABLE "accounts" ADD COLUMN "health" text DEFAULT 'ok' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "health_reason" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "health_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "health_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "accounts_health_checked" ON "accounts" USING btree ("health_checked_at");--> statement-breakpoint
UPDATE "accounts" SET "health" = 'needs_reconnect', "health_reason" = 'The platform refused the stored credentials' WHERE "status" = 'needs_reconnect';
