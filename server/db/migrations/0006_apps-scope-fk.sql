-- Decision 8: a document names an app of its own organisation or none. The composite reference
-- makes another organisation's app impossible, and deleting an app returns its documents to the
-- organisation (only app_id is set to NULL; PostgreSQL >= 15). drizzle-kit cannot express the
-- column list of ON DELETE SET NULL, hence this custom migration.
ALTER TABLE documents
  ADD CONSTRAINT documents_app_fk FOREIGN KEY (org_id, app_id)
  REFERENCES apps (org_id, id) ON DELETE SET NULL (app_id);
