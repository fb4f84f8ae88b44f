ALTER TABLE "post_events" ALTER COLUMN "actor" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "account_id" text;--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "part" integer;--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "attempt" integer;--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "error" jsonb;--> statement-breakpoint
ALTER TABLE "post_events" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "risk" jsonb;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "preflight_checked_at" timestamp with time zone;--> statement-breakpoint
-- The post timeline (docs/dispatch.md#timeline): triggers write each event in the statement, and so
-- the transaction, that changes the state it describes; statement-level with transition tables, so
-- a batch of the dispatcher's results is one INSERT of its events. `actor` is the one the writer
-- set with set_config('postwave.actor', …, true) in its transaction, 'system' for dispatch outcomes.
CREATE FUNCTION post_timeline_posts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, actor_name, action, detail, created_at)
  SELECT gen_random_uuid(), n.id, n.user_id, nullif(current_setting('postwave.actor', true), ''),
    nullif(current_setting('postwave.actor_name', true), ''), e.type, e.detail, n.created_at
  FROM new_posts n
  CROSS JOIN LATERAL (VALUES
    (1, 'created', jsonb_build_object('status', n.status)),
    (2, CASE WHEN n.status = 'scheduled' THEN 'scheduled' END, jsonb_build_object('scheduledAt', n.scheduled_at))
  ) AS e(ord, type, detail)
  WHERE e.type IS NOT NULL
  ORDER BY n.id, e.ord;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_timeline_posts_inserted AFTER INSERT ON posts REFERENCING NEW TABLE AS new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION post_timeline_posts_inserted();--> statement-breakpoint
CREATE FUNCTION post_timeline_posts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
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
        WHEN n.status <> o.status AND n.status = 'draft' THEN 'moved_to_draft'
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
CREATE TRIGGER post_timeline_posts_updated AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION post_timeline_posts_updated();--> statement-breakpoint
-- One `attempt` per platform call that can publish: a thread part recorded while publishing, and
-- the target's outcome; `resolved` when a person settles an unknown outcome; `failed` for a
-- target that failed before any call (validation at the due time).
CREATE FUNCTION post_timeline_targets_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, action, detail, account_id, part, attempt, outcome, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.user_id,
    CASE WHEN e.type = 'resolved' THEN nullif(current_setting('postwave.actor', true), '') ELSE 'system' END,
    e.type, jsonb_build_object('platform', n.platform), n.account_id,
    CASE WHEN e.type = 'attempt' THEN e.part END, nullif(n.attempts, 0), e.outcome, e.error, n.updated_at
  FROM new_targets n
  JOIN old_targets o ON o.post_id = n.post_id AND o.account_id = n.account_id
  JOIN posts p ON p.id = n.post_id
  CROSS JOIN LATERAL (
    SELECT
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
  ) AS e
  WHERE e.type IS NOT NULL
  ORDER BY n.post_id, n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_timeline_targets_updated AFTER UPDATE ON post_targets REFERENCING OLD TABLE AS old_targets NEW TABLE AS new_targets
  FOR EACH STATEMENT EXECUTE FUNCTION post_timeline_targets_updated();--> statement-breakpoint
CREATE FUNCTION post_timeline_targets_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, action, detail, account_id, outcome, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.user_id, 'system', 'failed', jsonb_build_object('platform', n.platform),
    n.account_id, 'failed', n.error, n.updated_at
  FROM new_targets n
  JOIN posts p ON p.id = n.post_id
  WHERE n.status = 'failed'
  ORDER BY n.post_id, n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_timeline_targets_inserted AFTER INSERT ON post_targets REFERENCING NEW TABLE AS new_targets
  FOR EACH STATEMENT EXECUTE FUNCTION post_timeline_targets_inserted();--> statement-breakpoint
-- Media uploaded ahead of the due time (`staged`), or the attempt that failed (`stage_failed`).
CREATE FUNCTION post_timeline_stagings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, action, detail, account_id, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.user_id, 'system', n.status, jsonb_build_object('platform', n.platform),
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
CREATE FUNCTION post_timeline_stagings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_events (id, post_id, user_id, actor, action, detail, account_id, error, created_at)
  SELECT gen_random_uuid(), n.post_id, p.user_id, 'system', n.status, jsonb_build_object('platform', n.platform),
    n.account_id, CASE WHEN n.status = 'stage_failed' THEN n.error END, n.updated_at
  FROM new_stagings n
  JOIN posts p ON p.id = n.post_id
  WHERE n.status IN ('staged', 'stage_failed')
  ORDER BY n.post_id, n.account_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER post_timeline_stagings_inserted AFTER INSERT ON post_stagings REFERENCING NEW TABLE AS new_stagings
  FOR EACH STATEMENT EXECUTE FUNCTION post_timeline_stagings_inserted();--> statement-breakpoint
CREATE TRIGGER post_timeline_stagings_updated AFTER UPDATE ON post_stagings REFERENCING OLD TABLE AS old_stagings NEW TABLE AS new_stagings
  FOR EACH STATEMENT EXECUTE FUNCTION post_timeline_stagings_updated();
