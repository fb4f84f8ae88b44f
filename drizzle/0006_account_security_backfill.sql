-- Users who signed in only through GitHub or Google had their address verified by the provider.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "password_hash" IS NULL AND "email_verified_at" IS NULL;--> statement-breakpoint
-- Tokens issued before expiry existed: CLI tokens live 90 days from their last use, personal ones 90 days from now.
UPDATE "api_tokens" SET "expires_at" = COALESCE("last_used_at", "created_at") + interval '90 days' WHERE "expires_at" IS NULL AND "kind" = 'cli';--> statement-breakpoint
UPDATE "api_tokens" SET "expires_at" = now() + interval '90 days' WHERE "expires_at" IS NULL;
