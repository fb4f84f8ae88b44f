-- Status notifications (web/server/posts/status-feed.ts) per statement, not per row: a statement
-- that changes many posts' status (the dispatcher's finalization, 30-60 posts) sends one NOTIFY
-- per 50 posts, `{"posts":[{id, workspaceId, status}, …]}` (under NOTIFY's 8,000-byte payload),
-- instead of calling a function and sending a NOTIFY per post. A deleted post still sends its own.
CREATE OR REPLACE FUNCTION postwave_notify_post_statuses() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  FOR payload IN
    SELECT json_build_object('posts', json_agg(json_build_object('id', c.id, 'workspaceId', c.workspace_id, 'status', c.status)))::text
    FROM (
      SELECT n.id, n.workspace_id, n.status, (row_number() OVER () - 1) / 50 AS chunk
      FROM new_posts n JOIN old_posts o ON o.id = n.id
      WHERE n.status IS DISTINCT FROM o.status
    ) c
    GROUP BY c.chunk
  LOOP
    PERFORM pg_notify('postwave_post_status', payload);
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS posts_status_notify ON posts;--> statement-breakpoint
CREATE TRIGGER posts_status_notify AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION postwave_notify_post_statuses();
