-- The earliest entry queued for an account since it was last given back (docs/analytics.md,
-- "Giving accounts back without a walk, ..."): the collector's release counts it with what its round
-- left, instead of walking the account's entries from the start through those the round deleted.
-- (During a rolling deploy, an older instance enrolling a target does not set it: such a target,
-- enrolled while a newer instance holds its account, may wait for the account's next collection.)
ALTER TABLE "metric_collect_accounts" ADD COLUMN "queued_due_at" timestamp with time zone;
