-- The events get their post's workspace, which scopes the timeline once the post is gone: added
-- empty, filled from the posts, then required. An event whose post is gone was unreadable (404) and
-- would have gone with its post (migration 0037); none is expected.
DROP INDEX "post_events_post";--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
UPDATE "post_events" e SET "workspace_id" = p."workspace_id" FROM "posts" p WHERE p."id" = e."post_id";--> statement-breakpoint
DELETE FROM "post_events" WHERE "workspace_id" IS NULL;--> statement-breakpoint
ALTER TABLE "post_events" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "post_events_workspace_post" ON "post_events" USING btree ("workspace_id","post_id","created_at");--> statement-breakpoint
-- hand-written
-- A deleted post keeps its timeline, which ends with `deleted` (contract section F): the trigger
-- that deleted a deleted post's events (0037) writes that event instead, for every way a post goes
-- (a person's delete with its pending recycled copies, copies that recycling no longer allows).
-- Its actor is named by the app in the same transaction, as for the other events the triggers
-- write (posts/audit.ts). A post that goes with its workspace gets none: the workspace's events
-- go with it, by the trigger below, whichever of the two triggers runs first. No foreign key to
-- `workspaces` on the events, for the reason 0037 dropped the others (a locking read per event in
-- the dispatcher's finalizing statement); every event is written with its post's row held, so
-- none is written after its workspace's deletion has taken the posts.
CREATE OR REPLACE FUNCTION post_events_of_deleted_posts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, actor_name, action, detail, created_at)
  SELECT gen_random_uuid(), g.id, g.workspace_id, g.user_id, nullif(current_setting('postwave.actor', true), ''),
    nullif(current_setting('postwave.actor_name', true), ''), 'deleted',
    jsonb_strip_nulls(jsonb_build_object('status', g.status, 'recycledFrom', g.recycled_from)), statement_timestamp()
  FROM gone_posts g
  WHERE EXISTS (SELECT 1 FROM workspaces w WHERE w.id = g.workspace_id)
  ORDER BY g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION post_events_of_deleted_workspaces() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM post_events e USING gone_workspaces g WHERE e.workspace_id = g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_events_of_deleted_workspaces AFTER DELETE ON workspaces REFERENCING OLD TABLE AS gone_workspaces
  FOR EACH STATEMENT EXECUTE FUNCTION post_events_of_deleted_workspaces();--> statement-breakpoint
-- The timeline's triggers as before (0041, 0035, 0020), each event with its post's workspace;
-- the posts' trigger also dates each event when it happened. A pre-flight check changes `risk`
-- and leaves `updated_at` alone (a check is not an edit; the next claim compares the two), so its
-- events took the post's last edit's time, often its creation's: `preflight_failed` now takes the
-- check's time (`risk.checkedAt`, as the post shows it), and an event of a statement that did not
-- stamp `updated_at` (`preflight_passed`) the statement's own time.
CREATE OR REPLACE FUNCTION post_timeline_posts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, actor_name, action, detail, created_at)
  SELECT gen_random_uuid(), n.id, n.workspace_id, n.user_id, nullif(current_setting('postwave.actor', true), ''),
    nullif(current_setting('postwave.actor_name', true), ''), e.type, e.detail, n.created_at
  FROM new_posts n
  CROSS JOIN LATERAL (VALUES
    (1, 'created', jsonb_build_object('status',
      CASE WHEN n.status = 'scheduled' AND n.lease_owner IS NOT NULL THEN 'publishing' ELSE n.status END)),
    (2, CASE WHEN n.status = 'scheduled' AND n.lease_owner IS NULL THEN 'scheduled' END,
      jsonb_build_object('scheduledAt', n.scheduled_at))
  ) AS e(ord, type, detail)
  WHERE e.type IS NOT NULL
  ORDER BY n.id, e.ord;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_timeline_posts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, actor_name, action, detail, created_at)
  SELECT gen_random_uuid(), n.id, n.workspace_id, n.user_id,
    CASE WHEN e.ord > 1 AND e.type NOT IN ('scheduled', 'moved_to_draft') THEN 'system' ELSE nullif(current_setting('postwave.actor', true), '') END,
    CASE WHEN e.ord > 1 AND e.type NOT IN ('scheduled', 'moved_to_draft') THEN NULL ELSE nullif(current_setting('postwave.actor_name', true), '') END,
    e.type, e.detail,
    CASE
      WHEN e.type = 'preflight_failed' THEN coalesce((n.risk ->> 'checkedAt')::timestamptz, statement_timestamp())
      WHEN n.updated_at IS DISTINCT FROM o.updated_at THEN n.updated_at
      ELSE statement_timestamp()
    END
  FROM new_posts n
  JOIN old_posts o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES
    (1, CASE WHEN (n.message, n.account_ids, n.media, n.overrides, n.thread, n.account_options)
        IS DISTINCT FROM (o.message, o.account_ids, o.media, o.overrides, o.thread, o.account_options)
      THEN 'updated' END, '{}'::jsonb),
    (2, CASE
        WHEN n.status = 'scheduled' AND n.lease_owner IS NULL
          AND (o.status <> 'scheduled' OR n.scheduled_at IS DISTINCT FROM o.scheduled_at) THEN 'scheduled'
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
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_timeline_targets_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, account_id, part, attempt, outcome, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.workspace_id, p.user_id,
    CASE WHEN e.type = 'resolved' THEN nullif(current_setting('postwave.actor', true), '') ELSE 'system' END,
    e.type, jsonb_build_object('platform', n.platform), n.account_id,
    CASE WHEN e.type = 'attempt' THEN e.part END, nullif(n.attempts, 0), e.outcome, e.error, n.updated_at
  FROM new_targets n
  JOIN old_targets o ON o.post_id = n.post_id AND o.account_id = n.account_id
  JOIN posts p ON p.id = n.post_id
  CROSS JOIN LATERAL (
    SELECT 1 AS ord,
      CASE
        WHEN o.status = 'publishing' AND n.status IN ('posted', 'failed', 'unknown') THEN 'attempt'
        WHEN o.status = 'unknown' AND n.status IN ('posted', 'failed') THEN 'resolved'
        WHEN o.status = 'failed' AND n.status = 'failed' AND n.error IS DISTINCT FROM o.error THEN 'failed'
        WHEN n.status = 'publishing' AND o.status = 'publishing'
          AND jsonb_array_length(coalesce(n.parts, '[]')) > jsonb_array_length(coalesce(o.parts, '[]')) THEN 'attempt'
      END AS type,
      CASE WHEN n.status = 'publishing' THEN 'posted' ELSE n.status END AS outcome,
      CASE WHEN n.status = 'publishing' THEN NULL ELSE n.error END AS error,
      (SELECT max((step ->> 'index')::int) FROM jsonb_array_elements(coalesce(n.parts, '[]')) AS step
        WHERE step ->> 'status' IN ('posted', 'failed', 'unknown')) AS part
    UNION ALL
    SELECT 2, 'comment_posted', 'posted', NULL, NULL
    WHERE n.first_comment ->> 'status' = 'posted' AND (o.first_comment ->> 'status') IS DISTINCT FROM 'posted'
    UNION ALL
    SELECT 3, 'unknown', 'unknown', n.error, NULL
    WHERE o.status <> 'unknown' AND n.status = 'unknown'
  ) AS e
  WHERE e.type IS NOT NULL
  ORDER BY n.post_id, n.account_id, e.ord;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_timeline_targets_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, account_id, outcome, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.workspace_id, p.user_id, 'system', 'failed', jsonb_build_object('platform', n.platform),
    n.account_id, 'failed', n.error, n.updated_at
  FROM new_targets n
  JOIN posts p ON p.id = n.post_id
  WHERE n.status = 'failed'
  ORDER BY n.post_id, n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_timeline_stagings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, account_id, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.workspace_id, p.user_id, 'system', n.status, jsonb_build_object('platform', n.platform),
    n.account_id, CASE WHEN n.status = 'stage_failed' THEN n.error END, n.updated_at
  FROM new_stagings n
  JOIN posts p ON p.id = n.post_id
  WHERE n.status IN ('staged', 'stage_failed')
    AND NOT EXISTS (
      SELECT 1 FROM old_stagings o
      WHERE o.post_id = n.post_id AND o.account_id = n.account_id AND o.status = n.status AND o.content_key = n.content_key)
  ORDER BY n.post_id, n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_timeline_stagings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, account_id, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.workspace_id, p.user_id, 'system', n.status, jsonb_build_object('platform', n.platform),
    n.account_id, CASE WHEN n.status = 'stage_failed' THEN n.error END, n.updated_at
  FROM new_stagings n
  JOIN posts p ON p.id = n.post_id
  WHERE n.status IN ('staged', 'stage_failed')
  ORDER BY n.post_id, n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Recycling (0025) as before, its events with the original's workspace; the pending copies that
-- changed settings no longer allow are deleted by the system (the person's edit is on the
-- original's timeline), so their `deleted` event says `system`.
DROP FUNCTION post_recycle_event(uuid, uuid, text, text, jsonb, timestamptz);--> statement-breakpoint
CREATE FUNCTION post_recycle_event(workspace_id uuid, post_id uuid, user_id uuid, action text, account_id text,
  detail jsonb, at timestamptz) RETURNS void LANGUAGE sql AS $$
  INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, action, detail, account_id, created_at)
  VALUES (gen_random_uuid(), post_id, workspace_id, user_id, 'system', action, detail, account_id, at)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION post_recycle_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f record;
  root posts%ROWTYPE;
  next_index integer;
  next_at timestamptz;
  at_time timestamptz;
  kept text[];
  acct text;
  reason text;
  copy_id uuid;
  gone_ids uuid[];
  gone_workspaces uuid[];
BEGIN
  -- The dispatcher's hot path (claims, leases, outcomes) never changes `recycle`: one cheap scan
  -- of the transition tables skips the rest.
  IF EXISTS (SELECT 1 FROM new_posts n JOIN old_posts o ON o.id = n.id WHERE n.recycle IS DISTINCT FROM o.recycle) THEN
    WITH gone AS (
      DELETE FROM posts c USING new_posts n, old_posts o
      WHERE o.id = n.id AND c.recycled_from = n.id AND n.recycle IS DISTINCT FROM o.recycle
        AND c.status IN ('draft', 'scheduled', 'failed')
        AND (c.lease_expires_at IS NULL OR c.lease_expires_at < now())
        AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = c.id AND t.status <> 'failed')
        AND (n.recycle IS NULL OR c.recycle_index > (n.recycle ->> 'maxTimes')::integer
          OR (n.recycle ? 'until' AND c.scheduled_at > (n.recycle ->> 'until')::timestamptz))
      RETURNING c.id, c.workspace_id
    )
    SELECT array_agg(id), array_agg(workspace_id) INTO gone_ids, gone_workspaces FROM gone;
    -- Their `deleted` events, just written by the deletion's trigger.
    UPDATE post_events e SET actor = 'system', actor_name = NULL
    FROM unnest(gone_workspaces, gone_ids) AS g(workspace_id, id)
    WHERE e.workspace_id = g.workspace_id AND e.post_id = g.id AND e.action = 'deleted' AND e.actor IS NULL;
    INSERT INTO post_events (id, post_id, workspace_id, user_id, actor, actor_name, action, detail, created_at)
    SELECT gen_random_uuid(), n.id, n.workspace_id, n.user_id, nullif(current_setting('postwave.actor', true), ''),
      nullif(current_setting('postwave.actor_name', true), ''), 'recycle_stopped',
      jsonb_build_object('reason', 'turned_off'), n.updated_at
    FROM new_posts n JOIN old_posts o ON o.id = n.id
    WHERE n.recycle IS NULL AND o.recycle IS NOT NULL;
  END IF;

  FOR f IN
    SELECT n.* FROM new_posts n JOIN old_posts o ON o.id = n.id
    WHERE n.status IN ('posted', 'failed') AND n.status IS DISTINCT FROM o.status
      AND (n.recycle IS NOT NULL OR n.recycled_from IS NOT NULL)
  LOOP
    SELECT * INTO root FROM posts WHERE id = coalesce(f.recycled_from, f.id);
    CONTINUE WHEN NOT FOUND OR root.recycle IS NULL;
    next_index := coalesce(f.recycle_index, 0) + 1;
    -- Already continued (a failed copy published again later): nothing more to do.
    CONTINUE WHEN EXISTS (SELECT 1 FROM posts WHERE recycled_from = root.id AND recycle_index >= next_index);
    at_time := coalesce(f.posted_at, f.updated_at);
    IF NOT EXISTS (
      SELECT 1 FROM post_targets t WHERE t.post_id = f.id
        AND (t.status = 'posted' OR t.error ->> 'code' = 'duplicate_content')
    ) THEN
      -- Nothing reached the platform: publishing it again continues the chain.
      PERFORM post_recycle_event(root.workspace_id, root.id, root.user_id, 'recycle_stopped', NULL,
        jsonb_build_object('reason', 'not_posted', 'fromPostId', f.id, 'index', next_index), at_time);
      CONTINUE;
    END IF;
    IF next_index > (root.recycle ->> 'maxTimes')::integer THEN
      PERFORM post_recycle_event(root.workspace_id, root.id, root.user_id, 'recycle_stopped', NULL,
        jsonb_build_object('reason', 'max_times', 'fromPostId', f.id, 'index', next_index), at_time);
      CONTINUE;
    END IF;
    next_at := recycle_next_at(at_time, (root.recycle ->> 'intervalDays')::integer,
      coalesce((root.recycle ->> 'jitterMinutes')::integer, 0), random(), now());
    IF root.recycle ? 'until' AND next_at > (root.recycle ->> 'until')::timestamptz THEN
      PERFORM post_recycle_event(root.workspace_id, root.id, root.user_id, 'recycle_stopped', NULL,
        jsonb_build_object('reason', 'until', 'fromPostId', f.id, 'index', next_index), at_time);
      CONTINUE;
    END IF;
    kept := '{}';
    FOR acct IN SELECT jsonb_array_elements_text(f.account_ids) LOOP
      SELECT CASE
          WHEN EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = f.id AND t.account_id = acct
            AND t.status = 'failed' AND t.error ->> 'code' = 'duplicate_content') THEN 'duplicate'
          WHEN a.id IS NULL THEN 'account_removed'
          WHEN a.status = 'needs_reconnect' OR a.health IN ('needs_reconnect', 'unreachable') THEN 'account_unhealthy'
        END INTO reason
      FROM (SELECT 1) AS one LEFT JOIN accounts a ON a.id::text = acct AND a.workspace_id = root.workspace_id;
      IF reason IS NULL THEN
        kept := kept || acct;
      ELSE
        PERFORM post_recycle_event(root.workspace_id, root.id, root.user_id, 'recycle_stopped', acct,
          jsonb_build_object('reason', reason, 'fromPostId', f.id, 'index', next_index), at_time);
      END IF;
    END LOOP;
    IF cardinality(kept) = 0 THEN
      PERFORM post_recycle_event(root.workspace_id, root.id, root.user_id, 'recycle_stopped', NULL,
        jsonb_build_object('reason', 'no_targets', 'fromPostId', f.id, 'index', next_index), at_time);
      CONTINUE;
    END IF;
    copy_id := gen_random_uuid();
    INSERT INTO posts (id, workspace_id, user_id, status, message, account_ids, media, account_options,
      overrides, thread, scheduled_at, next_attempt_at, created_at, updated_at, recycled_from, recycle_index)
    VALUES (copy_id, root.workspace_id, root.user_id, 'scheduled', root.message, to_jsonb(kept), root.media,
      (SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(root.account_options) e
        WHERE e.key = ANY(kept)),
      (SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(root.overrides) e
        WHERE e.key = ANY(kept)),
      root.thread, next_at, next_at, at_time, at_time, root.id, next_index)
    ON CONFLICT (recycled_from, recycle_index) DO NOTHING;
    IF FOUND THEN
      PERFORM post_recycle_event(root.workspace_id, root.id, root.user_id, 'recycle_scheduled', NULL,
        jsonb_build_object('copyId', copy_id, 'index', next_index, 'scheduledAt', next_at,
          'fromPostId', f.id, 'accountIds', to_jsonb(kept)), at_time);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
