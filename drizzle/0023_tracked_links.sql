CREATE TABLE "target_links" (
	"post_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"url" text NOT NULL,
	"long_url" text NOT NULL,
	"short_url" text,
	"provider" text,
	"ref" text,
	"warning" jsonb,
	"clicks" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "target_links_post_id_account_id_url_pk" PRIMARY KEY("post_id","account_id","url")
);
--> statement-breakpoint
CREATE TABLE "workspace_link_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"utm" jsonb,
	"provider" text,
	"api_url" text,
	"api_key" text,
	"domain" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "target_links" ADD CONSTRAINT "target_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_link_settings" ADD CONSTRAINT "workspace_link_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;