/**
 * The views the SQL runner may read (migration sql-views, decision 0061): each shows the safe
 * columns of one tenant table (no document text, no auth tables, no credentials), is
 * `security_invoker`, and is granted only to the role `lexdesk_sql` the runner's statements run
 * as. The runner's parser check refuses every other relation; the database refuses them too.
 */
export const SQL_VIEWS = [
  'sql_analyses',
  'sql_apps',
  'sql_audit_logs',
  'sql_conversations',
  'sql_documents',
  'sql_entities',
  'sql_events',
  'sql_jobs',
  'sql_recordings',
  'sql_storage_objects',
] as const
