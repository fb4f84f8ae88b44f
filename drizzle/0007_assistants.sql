CREATE TABLE "post_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"post_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"actor_name" text,
	"action" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "assistants_must_confirm" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "post_events" ADD CONSTRAINT "post_events_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_events" ADD CONSTRAINT "post_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_events_post" ON "post_events" USING btree ("post_id","created_at");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION postwave_notify_post_status() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('postwave_post_status', json_build_object('id', OLD.id, 'userId', OLD.user_id, 'status', 'deleted')::text);
  ELSE
    PERFORM pg_notify('postwave_post_status', json_build_object('id', NEW.id, 'userId', NEW.user_id, 'status', NEW.status)::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER posts_status_notify AFTER UPDATE OF status ON "posts" FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION postwave_notify_post_status();
--> statement-breakpoint
CREATE TRIGGER posts_delete_notify AFTER DELETE ON "posts" FOR EACH ROW EXECUTE FUNCTION postwave_notify_post_status();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION postwave_notify_accounts() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('postwave_post_status', json_build_object('kind', 'accounts', 'userId', COALESCE(NEW.user_id, OLD.user_id))::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER accounts_notify AFTER INSERT OR DELETE OR UPDATE OF label, username, status, profile_picture ON "accounts" FOR EACH ROW EXECUTE FUNCTION postwave_notify_accounts();
