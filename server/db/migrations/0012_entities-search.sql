-- Issue 9: the entities search (case-insensitive partial match on name or type, ILIKE '%q%') is
-- served by trigram GIN indexes (pg_trgm, a trusted contrib extension on PostgreSQL >= 13 and
-- bundled with PGlite), so a selective search reads only its candidates instead of every row.
-- A small pending list (256 kB, default 4 MB): PGlite has no autovacuum to merge it, so every
-- search scans it linearly until an insert fills it and it is merged; 256 kB keeps that scan
-- short (~1 ms) while inserts still reach the index in batches (fastupdate off made a 10,000-row
-- import 2-3 times slower).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS entities_search_idx ON entities USING gin (name gin_trgm_ops, type gin_trgm_ops)
  WITH (fastupdate = on, gin_pending_list_limit = 256);
--> statement-breakpoint
-- Under row-level security PostgreSQL uses a user condition as an index condition only when its
-- function is LEAKPROOF (it must not reveal rows the policy would hide). ILIKE's texticlike can
-- raise an error only from its pattern (the caller's own search text), never from the row's
-- value, so it is declared leakproof, which lets the search use entities_search_idx. Only a
-- superuser may declare it: elsewhere this is skipped and the search scans the tenant's rows.
DO $$ BEGIN
  ALTER FUNCTION texticlike(text, text) LEAKPROOF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'texticlike stays non-leakproof: the entities search will scan instead of using its index';
END $$;
