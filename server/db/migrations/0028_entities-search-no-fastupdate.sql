-- The entities search index (trigram GIN, migration 0012) takes new entries straight into its
-- tree instead of a pending list (decision 0035). With the pending list, every few thousand
-- inserted rows one unlucky statement merged the whole list: 1.2–2.5 s inside one import batch
-- (or one entity's creation) while every organisation waited, against a steady ~30 % more per
-- insert without it. Searches no longer scan a pending list either.
ALTER INDEX entities_search_idx SET (fastupdate = off);
