CREATE TABLE "post_stagings" (
	"post_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"platform" text NOT NULL,
	"status" text NOT NULL,
	"handle" text,
	"expires_at" timestamp with time zone,
	"content_key" text NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"error" jsonb,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "post_stagings_post_id_account_id_pk" PRIMARY KEY("post_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "post_stagings" ADD CONSTRAINT "post_stagings_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;