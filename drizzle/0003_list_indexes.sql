DROP INDEX "posts_user_created";--> statement-breakpoint
DROP INDEX "posts_user_status_created";--> statement-breakpoint
CREATE INDEX "posts_user_created_id" ON "posts" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "posts_user_status_created_id" ON "posts" USING btree ("user_id","status","created_at","id");