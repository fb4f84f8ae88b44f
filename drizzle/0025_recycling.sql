ALTER TABLE "posts" ADD COLUMN "recycle" jsonb;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "recycled_from" uuid;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "recycle_index" integer;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_recycled_from_posts_id_fk" FOREIGN KEY ("recycled_from") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "posts_recycled_from_index" ON "posts" USING btree ("recycled_from","recycle_index");--> statement-breakpoint
-- hand-written
-- Evergreen recycling (docs/recycling.md). When a copy comes due: the base time plus `interval_days`
-- whole days (24 h each, whatever the zone's clock changes) plus a jitter drawn uniformly among the
-- whole minutes in [-jitter, +jitter] by `r` in [0, 1), never before `not_before`.
CREATE FUNCTION recycle_next_at(base timestamptz, interval_days integer, jitter_minutes integer,
  r double precision, not_before timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT greatest(
    base + make_interval(hours => interval_days * 24)
      + make_interval(mins => (floor(r * (2 * jitter_minutes + 1)) - jitter_minutes)::integer),
    not_before)
$$;--> statement-breakpoint
CREATE FUNCTION post_recycle_event(post_id uuid, user_id uuid, action text, account_id text, detail jsonb,
  at timestamptz) RETURNS void LANGUAGE sql AS $$
  INSERT INTO post_events (id, post_id, user_id, actor, action, detail, account_id, created_at)
  VALUES (gen_random_uuid(), post_id, user_id, 'system', action, detail, account_id, at)
$$;--> statement-breakpoint
-- The chain's steps, written by the statement (and so the transaction) that changes the post:
-- a person turning recycling off or narrowing it removes the copies it no longer allows; a post of
-- a chain that finishes publishing schedules the next copy or says on the original's timeline why
-- not. The unique (recycled_from, recycle_index) index makes a second finisher's insert a no-op.
CREATE FUNCTION post_recycle_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
BEGIN
  -- The dispatcher's hot path (claims, leases, outcomes) never changes `recycle`: one cheap scan
  -- of the transition tables skips the rest.
  IF EXISTS (SELECT 1 FROM new_posts n JOIN old_posts o ON o.id = n.id WHERE n.recycle IS DISTINCT FROM o.recycle) THEN
    DELETE FROM posts c USING new_posts n, old_posts o
    WHERE o.id = n.id AND c.recycled_from = n.id AND n.recycle IS DISTINCT FROM o.recycle
      AND c.status IN ('draft', 'scheduled', 'failed')
      AND (c.lease_expires_at IS NULL OR c.lease_expires_at < now())
      AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = c.id AND t.status <> 'failed')
      AND (n.recycle IS NULL OR c.recycle_index > (n.recycle ->> 'maxTimes')::integer
        OR (n.recycle ? 'until' AND c.scheduled_at > (n.recycle ->> 'until')::timestamptz));
    INSERT INTO post_events (id, post_id, user_id, actor, actor_name, action, detail, created_at)
    SELECT gen_random_uuid(), n.id, n.user_id, nullif(current_setting('postwave.actor', true), ''),
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
      PERFORM post_recycle_event(root.id, root.user_id, 'recycle_stopped', NULL,
        jsonb_build_object('reason', 'not_posted', 'fromPostId', f.id, 'index', next_index), at_time);
      CONTINUE;
    END IF;
    IF next_index > (root.recycle ->> 'maxTimes')::integer THEN
      PERFORM post_recycle_event(root.id, root.user_id, 'recycle_stopped', NULL,
        jsonb_build_object('reason', 'max_times', 'fromPostId', f.id, 'index', next_index), at_time);
      CONTINUE;
    END IF;
    next_at := recycle_next_at(at_time, (root.recycle ->> 'intervalDays')::integer,
      coalesce((root.recycle ->> 'jitterMinutes')::integer, 0), random(), now());
    IF root.recycle ? 'until' AND next_at > (root.recycle ->> 'until')::timestamptz THEN
      PERFORM post_recycle_event(root.id, root.user_id, 'recycle_stopped', NULL,
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
        PERFORM post_recycle_event(root.id, root.user_id, 'recycle_stopped', acct,
          jsonb_build_object('reason', reason, 'fromPostId', f.id, 'index', next_index), at_time);
      END IF;
    END LOOP;
    IF cardinality(kept) = 0 THEN
      PERFORM post_recycle_event(root.id, root.user_id, 'recycle_stopped', NULL,
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
      PERFORM post_recycle_event(root.id, root.user_id, 'recycle_scheduled', NULL,
        jsonb_build_object('copyId', copy_id, 'index', next_index, 'scheduledAt', next_at,
          'fromPostId', f.id, 'accountIds', to_jsonb(kept)), at_time);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_recycle_after_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION post_recycle_after_update();
