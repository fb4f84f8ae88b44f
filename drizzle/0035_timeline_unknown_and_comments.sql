-- hand-written
-- The timeline's `unknown` (a target whose outcome could not be known: the platform may or may not
-- have posted it) and `comment_posted` (a target's first comment went out), contract section F.
-- Both beside what the target's change already records (its `attempt`), in the same statement.
CREATE OR REPLACE FUNCTION post_timeline_targets_updated() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;
