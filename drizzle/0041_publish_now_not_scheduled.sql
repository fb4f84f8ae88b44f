-- A post published now is stored `scheduled` under the request's lease (so that dispatch finishes it
-- if the process dies mid-publish), and the timeline's triggers took that for scheduling: a
-- publish-now post's timeline said "scheduled it". A post that becomes `scheduled` already leased is
-- being published now (scheduling never leases; dispatch leases only posts that are scheduled
-- already): its `created` event says `publishing` and no `scheduled` event is written; its attempts
-- and outcome follow as for any publish.
CREATE OR REPLACE FUNCTION post_timeline_posts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, actor_name, action, detail, created_at)
  SELECT gen_random_uuid(), n.id, n.user_id, nullif(current_setting('postwave.actor', true), ''),
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
END $$;
