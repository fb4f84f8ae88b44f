-- Slots given back by key: the store may hand one slot of a released grant (its platform's, say)
-- to the next acquisition of the same key without writing anything, and give back only the rest
-- (docs/dispatch.md, "Limits across instances"). Releases are (grant, key) pairs; the
-- acquisitions are answered by the 3-argument function, left as it is for instances still on it.
CREATE OR REPLACE FUNCTION postwave_acquire_limits(requests jsonb, lease_ms integer, releases uuid[], release_keys text[]) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(releases) > 0 THEN
    DELETE FROM publish_limit_grants g
    USING unnest(releases, release_keys) AS r(grant_id, key)
    WHERE g.grant_id = r.grant_id AND g.key = r.key AND g.kind = 'slot';
  END IF;
  RETURN postwave_acquire_limits(requests, lease_ms, '{}'::uuid[]);
END $$;
