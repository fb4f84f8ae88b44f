ALTER TABLE "oauth_authorization_codes" ADD COLUMN "family_id" uuid;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "family_id" uuid;--> statement-breakpoint
CREATE INDEX "oauth_tokens_family" ON "oauth_tokens" USING btree ("family_id");