-- The timeline's events no longer check their post and user by foreign key. Each event is written
-- in the statement that changes its post, target or staging (the timeline's triggers), whose row
-- that statement holds, or by the app under a key-share lock of its post; so the check only cost
-- a locking read of the post and of the user per event: about a fifth of the dispatcher's
-- finalizing statement (docs/dispatch.md, "Slots handed on, events without foreign keys"). What the
-- keys did on delete, these triggers do: a deleted post's events go with it, a deleted user's
-- name leaves theirs.
ALTER TABLE "post_events" DROP CONSTRAINT "post_events_post_id_posts_id_fk";--> statement-breakpoint
ALTER TABLE "post_events" DROP CONSTRAINT "post_events_user_id_users_id_fk";--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_events_of_deleted_posts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM post_events e USING gone_posts g WHERE e.post_id = g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_events_of_deleted_posts AFTER DELETE ON posts REFERENCING OLD TABLE AS gone_posts
  FOR EACH STATEMENT EXECUTE FUNCTION post_events_of_deleted_posts();--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_events_of_deleted_users() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE post_events e SET user_id = NULL FROM gone_users g WHERE e.user_id = g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_events_of_deleted_users AFTER DELETE ON users REFERENCING OLD TABLE AS gone_users
  FOR EACH STATEMENT EXECUTE FUNCTION post_events_of_deleted_users();
