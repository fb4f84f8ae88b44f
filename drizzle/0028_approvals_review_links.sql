CREATE TABLE "review_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"allow_decision" boolean NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "approval" jsonb;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_links" ADD CONSTRAINT "review_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_links_post" ON "review_links" USING btree ("post_id");--> statement-breakpoint
-- hand-written
-- A rejected submission goes back to draft: the timeline says `rejected` (written with the decision), not `moved_to_draft`.
CREATE OR REPLACE FUNCTION post_timeline_posts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, actor_name, action, detail, created_at)
  SELECT gen_random_uuid(), n.id, n.user_id,
    CASE WHEN e.ord > 1 AND e.type NOT IN ('scheduled', 'moved_to_draft') THEN 'system' ELSE nullif(current_setting('postwave.actor', true), '') END,
    CASE WHEN e.ord > 1 AND e.type NOT IN ('scheduled', 'moved_to_draft') THEN NULL ELSE nullif(current_setting('postwave.actor_name', true), '') END,
    e.type, e.detail, n.updated_at
  FROM new_posts n
  JOIN old_posts o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES
    (1, CASE WHEN (n.message, n.account_ids, n.media, n.overrides, n.thread, n.account_options)
        IS DISTINCT FROM (o.message, o.account_ids, o.media, o.overrides, o.thread, o.account_options)
      THEN 'updated' END, '{}'::jsonb),
    (2, CASE
        WHEN n.status = 'scheduled' AND (o.status <> 'scheduled' OR n.scheduled_at IS DISTINCT FROM o.scheduled_at) THEN 'scheduled'
        WHEN n.status <> o.status AND n.status = 'draft' AND o.status <> 'pending_approval' THEN 'moved_to_draft'
        WHEN n.status <> o.status AND n.status IN ('posted', 'failed') THEN n.status
      END, jsonb_build_object('scheduledAt', n.scheduled_at)),
    (3, CASE
        WHEN n.risk IS NOT NULL AND (n.risk ->> 'code', n.risk ->> 'accountId') IS DISTINCT FROM (o.risk ->> 'code', o.risk ->> 'accountId')
          THEN 'preflight_failed'
        WHEN n.risk IS NULL AND o.risk IS NOT NULL AND n.status = 'scheduled' THEN 'preflight_passed'
      END, coalesce(n.risk, '{}'::jsonb))
  ) AS e(ord, type, detail)
  WHERE e.type IS NOT NULL
  ORDER BY n.id, e.ord;
  RETURN NULL;
END $$;
