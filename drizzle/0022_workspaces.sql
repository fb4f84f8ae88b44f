CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "workspace_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_grants" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "account_queues" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "cli_authorization_codes" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "connect_pending" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "connect_states" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "imported_media" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "post_imports" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "staged_discards" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "current_workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "workspace_id" uuid;
--> statement-breakpoint
-- Every existing user gets a personal workspace (docs/workspaces.md#upgrading). It takes the
-- user's id, so each row's new workspace_id is simply its old user_id; the user's "assistants
-- must confirm" and time zone become the workspace's settings.
INSERT INTO "workspaces" ("id", "name", "settings", "created_at")
SELECT "id", coalesce(nullif(btrim("name"), ''), "email") || '''s workspace',
  jsonb_build_object('approvals', 'contributors', 'timezone', "timezone",
    'assistantsRequireApproval', "assistants_must_confirm"),
  now()
FROM "users";
--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "created_at")
SELECT "id", "id", 'owner', now() FROM "users";
--> statement-breakpoint
UPDATE "users" SET "current_workspace_id" = "id";
--> statement-breakpoint
UPDATE "account_grants" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "account_queues" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "accounts" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "api_tokens" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "cli_authorization_codes" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "connect_pending" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "connect_states" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "feeds" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "idempotency_keys" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "imported_media" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "media" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "oauth_authorization_codes" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "oauth_tokens" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "post_imports" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "posts" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "staged_discards" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "webhook_deliveries" SET "workspace_id" = "user_id";
--> statement-breakpoint
UPDATE "webhook_endpoints" SET "workspace_id" = "user_id";
--> statement-breakpoint
ALTER TABLE "account_grants" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "account_queues" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "cli_authorization_codes" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "connect_pending" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "connect_states" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "feeds" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "imported_media" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "post_imports" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "staged_discards" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "workspace_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "account_grants" DROP CONSTRAINT "account_grants_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "account_queues" DROP CONSTRAINT "account_queues_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "feeds" DROP CONSTRAINT "feeds_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "imported_media" DROP CONSTRAINT "imported_media_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "media" DROP CONSTRAINT "media_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "post_imports" DROP CONSTRAINT "post_imports_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "staged_discards" DROP CONSTRAINT "staged_discards_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "account_grants_user_platform_key";
--> statement-breakpoint
DROP INDEX "accounts_user_platform_target";
--> statement-breakpoint
DROP INDEX "accounts_user_created";
--> statement-breakpoint
DROP INDEX "feeds_user_created";
--> statement-breakpoint
DROP INDEX "media_user";
--> statement-breakpoint
DROP INDEX "post_imports_user_digest";
--> statement-breakpoint
DROP INDEX "posts_user_created_id";
--> statement-breakpoint
DROP INDEX "posts_user_status_created_id";
--> statement-breakpoint
DROP INDEX "webhook_endpoints_user";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_key_pk";
--> statement-breakpoint
ALTER TABLE "imported_media" DROP CONSTRAINT "imported_media_user_id_source_url_pk";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_workspace_id_user_id_key_pk" PRIMARY KEY("workspace_id","user_id","key");
--> statement-breakpoint
ALTER TABLE "imported_media" ADD CONSTRAINT "imported_media_workspace_id_source_url_pk" PRIMARY KEY("workspace_id","source_url");
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_grants" ADD CONSTRAINT "account_grants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_queues" ADD CONSTRAINT "account_queues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cli_authorization_codes" ADD CONSTRAINT "cli_authorization_codes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "connect_pending" ADD CONSTRAINT "connect_pending_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "connect_states" ADD CONSTRAINT "connect_states_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "imported_media" ADD CONSTRAINT "imported_media_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "post_imports" ADD CONSTRAINT "post_imports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "staged_discards" ADD CONSTRAINT "staged_discards_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "workspace_invitations_workspace" ON "workspace_invitations" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE INDEX "workspace_members_user" ON "workspace_members" USING btree ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "account_grants_workspace_platform_key" ON "account_grants" USING btree ("workspace_id","platform","grant_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_workspace_platform_target" ON "accounts" USING btree ("workspace_id","platform","platform_account_id");
--> statement-breakpoint
CREATE INDEX "accounts_workspace_created" ON "accounts" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE INDEX "api_tokens_workspace" ON "api_tokens" USING btree ("workspace_id","user_id");
--> statement-breakpoint
CREATE INDEX "feeds_workspace_created" ON "feeds" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE INDEX "media_workspace" ON "media" USING btree ("workspace_id");
--> statement-breakpoint
CREATE INDEX "oauth_tokens_workspace" ON "oauth_tokens" USING btree ("workspace_id","user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "post_imports_workspace_digest" ON "post_imports" USING btree ("workspace_id","digest");
--> statement-breakpoint
CREATE INDEX "posts_workspace_created_id" ON "posts" USING btree ("workspace_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "posts_workspace_status_created_id" ON "posts" USING btree ("workspace_id","status","created_at","id");
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_workspace" ON "webhook_endpoints" USING btree ("workspace_id","created_at");
--> statement-breakpoint
ALTER TABLE "account_grants" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "account_queues" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "feeds" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "imported_media" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "media" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "post_imports" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "staged_discards" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "assistants_must_confirm";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "user_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "posts" DROP CONSTRAINT "posts_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "connect_pending" DROP COLUMN "user_id";
--> statement-breakpoint
ALTER TABLE "connect_states" DROP COLUMN "user_id";
--> statement-breakpoint
-- Status notifications (server/posts/status-feed.ts) name the workspace now: MCP subscriptions
-- listen per workspace.
CREATE OR REPLACE FUNCTION postwave_notify_post_status() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('postwave_post_status', json_build_object('id', OLD.id, 'workspaceId', OLD.workspace_id, 'status', 'deleted')::text);
  ELSE
    PERFORM pg_notify('postwave_post_status', json_build_object('id', NEW.id, 'workspaceId', NEW.workspace_id, 'status', NEW.status)::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION postwave_notify_accounts() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('postwave_post_status', json_build_object('kind', 'accounts', 'workspaceId', COALESCE(NEW.workspace_id, OLD.workspace_id))::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The timeline (0020) keeps its events when the post's author goes: posts.user_id is nullable now.
ALTER TABLE "post_events" DROP CONSTRAINT "post_events_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "post_events" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "post_events" ADD CONSTRAINT "post_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
