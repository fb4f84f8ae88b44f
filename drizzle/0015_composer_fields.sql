ALTER TABLE "post_targets" ADD COLUMN "parts" jsonb;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "first_comment" jsonb;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "overrides" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "thread" jsonb DEFAULT '[]'::jsonb NOT NULL;