CREATE TABLE "publish_limit_grants" (
	"grant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "publish_limit_grants_grant_id_key_pk" PRIMARY KEY("grant_id","key")
);
--> statement-breakpoint
CREATE INDEX "publish_limit_grants_key" ON "publish_limit_grants" USING btree ("key","expires_at");--> statement-breakpoint
-- Takes a batch of acquisitions in one round trip. `requests`: [{ "limits": [{ "k": key, "n": limit,
-- "w": window ms or null for a slot }] }]. Each acquisition gets all of its grants or none:
-- answers, in order, { "g": grant id } or { "b": the key that refused, "r": ms until a rate grant
-- of it runs out (null for slots) }. Every key of the batch is locked (advisory, transaction-scoped,
-- in one order) so instances serialize per key and never deadlock; times are the database's clock.
CREATE FUNCTION postwave_acquire_limits(requests jsonb, lease_ms integer) RETURNS jsonb
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
