CREATE TABLE "account_grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"grant_key" text NOT NULL,
	"credentials" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "credentials" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "grant_id" uuid;--> statement-breakpoint
ALTER TABLE "connect_states" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "account_grants" ADD CONSTRAINT "account_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_grants_user_platform_key" ON "account_grants" USING btree ("user_id","platform","grant_key");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_grant_id_account_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."account_grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_grant" ON "accounts" USING btree ("grant_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_credentials_or_grant" CHECK ("accounts"."credentials" IS NOT NULL OR "accounts"."grant_id" IS NOT NULL);