-- Slot releases ride along with the next acquisitions: one round trip deletes the released slots,
-- then acquires, so a slot freed here is free for the acquisitions of the same call and the store
-- sends one statement where it sent two. `releases`: grant ids of slots given back (rate grants
-- are never released). Called with two arguments, it acquires as before.
DROP FUNCTION postwave_acquire_limits(jsonb, integer);--> statement-breakpoint
CREATE FUNCTION postwave_acquire_limits(requests jsonb, lease_ms integer, releases uuid[] DEFAULT '{}') RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  lock_key text;
  now_at timestamptz;
  acquisition jsonb;
  lim jsonb;
  live integer;
  frees timestamptz;
  blocked text;
  retry_ms float8;
  grant_uuid uuid;
  answers jsonb := '[]'::jsonb;
BEGIN
  IF cardinality(releases) > 0 THEN
    DELETE FROM publish_limit_grants WHERE grant_id = ANY(releases) AND kind = 'slot';
  END IF;
  IF jsonb_array_length(requests) = 0 THEN
    RETURN answers;
  END IF;
  FOR lock_key IN
    SELECT DISTINCT l->>'k' FROM jsonb_array_elements(requests) a, jsonb_array_elements(a->'limits') l ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(lock_key, 74022311));
  END LOOP;
  now_at := clock_timestamp();
  DELETE FROM publish_limit_grants g
  WHERE g.expires_at <= now_at
    AND g.key IN (SELECT l->>'k' FROM jsonb_array_elements(requests) a, jsonb_array_elements(a->'limits') l);
  FOR acquisition IN SELECT a.value FROM jsonb_array_elements(requests) WITH ORDINALITY a ORDER BY a.ordinality
  LOOP
    blocked := NULL;
    retry_ms := NULL;
    FOR lim IN SELECT l.value FROM jsonb_array_elements(acquisition->'limits') WITH ORDINALITY l ORDER BY l.ordinality
    LOOP
      SELECT count(*) INTO live FROM publish_limit_grants g WHERE g.key = lim->>'k' AND g.expires_at > now_at;
      IF live >= (lim->>'n')::integer THEN
        blocked := lim->>'k';
        IF jsonb_typeof(lim->'w') = 'number' THEN
          SELECT g.expires_at INTO frees FROM publish_limit_grants g
          WHERE g.key = blocked AND g.expires_at > now_at
          ORDER BY g.expires_at OFFSET live - (lim->>'n')::integer LIMIT 1;
          retry_ms := greatest(1, ceil(extract(epoch FROM frees - now_at) * 1000));
        END IF;
        EXIT;
      END IF;
    END LOOP;
    IF blocked IS NULL THEN
      grant_uuid := gen_random_uuid();
      INSERT INTO publish_limit_grants (grant_id, key, kind, expires_at)
      SELECT grant_uuid, l->>'k',
        CASE WHEN jsonb_typeof(l->'w') = 'number' THEN 'rate' ELSE 'slot' END,
        now_at + make_interval(secs => (CASE WHEN jsonb_typeof(l->'w') = 'number' THEN (l->>'w')::float8 ELSE lease_ms END) / 1000.0)
      FROM jsonb_array_elements(acquisition->'limits') l;
      answers := answers || jsonb_build_array(jsonb_build_object('g', grant_uuid));
    ELSE
      answers := answers || jsonb_build_array(jsonb_build_object('b', blocked, 'r', retry_ms));
    END IF;
  END LOOP;
  RETURN answers;
END $$;
