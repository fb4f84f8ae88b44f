ALTER TABLE "media" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "alt_text" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "tags" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "thumbnail_key" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "inspected_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "media_workspace_created_id" ON "media" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_workspace_sha256" ON "media" USING btree ("workspace_id","sha256") WHERE "media"."sha256" is not null;