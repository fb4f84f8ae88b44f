CREATE TABLE "feed_items" (
	"feed_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"post_id" uuid,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "feed_items_feed_id_item_id_pk" PRIMARY KEY("feed_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "feeds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"name" text,
	"account_ids" jsonb NOT NULL,
	"template" text NOT NULL,
	"mode" text NOT NULL,
	"interval_minutes" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"etag" text,
	"last_modified" text,
	"primed" boolean DEFAULT false NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_status" text,
	"last_error" text,
	"next_poll_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imported_media" (
	"user_id" uuid NOT NULL,
	"source_url" text NOT NULL,
	"media_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "imported_media_user_id_source_url_pk" PRIMARY KEY("user_id","source_url")
);
--> statement-breakpoint
CREATE TABLE "post_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"digest" text NOT NULL,
	"rows" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_media" ADD CONSTRAINT "imported_media_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_media" ADD CONSTRAINT "imported_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_imports" ADD CONSTRAINT "post_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feeds_user_created" ON "feeds" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "feeds_due" ON "feeds" USING btree ("next_poll_at");--> statement-breakpoint
CREATE UNIQUE INDEX "post_imports_user_digest" ON "post_imports" USING btree ("user_id","digest");