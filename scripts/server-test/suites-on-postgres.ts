/**
 * Which Vitest files of the server `npm run test:server` runs against PostgreSQL
 * (TEST_DATABASE_URL: the app under test logs in as a least-privileged role, decision 0077), and
 * why each other file of the server that opens a test database is left out. One place for both:
 * suites-on-postgres.test.ts fails when a file of that kind is in neither list.
 * The budget: `.ci/run` under 30 minutes on an idle machine, of which these files take about
 * 4 minutes (estimated from runs under load, decision 0077).
 */

/** The API (route) and search suites run on PostgreSQL. */
export const SUITES_ON_POSTGRES = [
  'server/search/hybrid-search.test.ts',
  'server/search/vector-column.test.ts',
  'server/features/vector/search.test.ts',
  'server/features/vector/passage-state.test.ts',
  'server/features/documents/documents.test.ts',
  'server/features/entities/entities.test.ts',
  'server/features/realtime/realtime.test.ts',
  'server/features/realtime/job-follows.test.ts',
  'server/features/sql/sql.test.ts',
  'server/features/api-keys/api-keys.test.ts',
  'server/features/holds/legal-holds.test.ts',
  'server/features/retention/retention.test.ts',
  'server/features/apps/apps.test.ts',
  'server/features/assistant/assistant.test.ts',
  'server/features/analytics/analytics.test.ts',
  'server/features/audit/audit.test.ts',
  'server/features/jobs/jobs.test.ts',
  'server/features/security/tenant-tokens.test.ts',
  'server/features/team/team.test.ts',
  'server/features/sso/sso.test.ts',
  'server/features/archives/publish-import.test.ts',
  'server/features/archives/review-archive.test.ts',
  'server/auth/auth.test.ts',
  'server/auth/route-roles.test.ts',
  'server/auth/credential-narrowing.test.ts',
  'server/db/rls-coverage.test.ts',
  'server/db/pipelined-reads.test.ts',
  'server/http/unstorable-text.test.ts',
  'server/features/documents/document-list.test.ts',
  'server/lists/json-text-page.test.ts',
  'server/features/reviews/reviews.test.ts',
  'server/features/reviews/review-fill-failures.test.ts',
  'server/features/documents/ocr-failure.test.ts',
  'server/features/comparisons/comparisons.test.ts',
  'server/features/playbooks/playbooks.test.ts',
  'server/realtime/org-messages.test.ts',
]

/** The suites of SUITES_ON_POSTGRES that need pgvector (search by meaning). */
export const SUITES_NEEDING_PGVECTOR = new Set([
  'server/search/hybrid-search.test.ts',
  'server/search/vector-column.test.ts',
  'server/features/vector/search.test.ts',
  'server/features/vector/passage-state.test.ts',
])

const PGLITE_ONLY = "PGlite's own machinery (the database thread, its batches and plans)"
const CHECKED_ACROSS_INSTANCES =
  'checked on PostgreSQL across two instances by a check of test:server itself'
const TIME =
  'left out for time (.ci/run under 30 min): its SQL is the same the suites above run on PostgreSQL'
const ENGINES =
  'left out for time: its cost is the local engines (extraction, OCR, speech, analysis), not the database'

/** Each server file with a test database that is not run on PostgreSQL, and why. */
export const LEFT_OUT: Record<string, string> = {
  'server/auth/limit-unknown-credentials.test.ts': TIME,
  'server/features/entities/import-app-bound.test.ts': TIME,
  'server/features/reviews/review-fill-cost.test.ts': TIME,
  'server/features/reviews/read-custom-columns.test.ts': TIME,
  'server/features/reviews/review-row-limit.test.ts': TIME,
  'server/features/reviews/review-export-busy.test.ts':
    'left out for time: the one-export-at-a-time gate is in the process, the export itself mocked; no SQL of its own',
  'server/features/audit/app-bound-reach.test.ts':
    "left out for time: its refusals are the route guard's (route-roles.ts), before any SQL; the walk's run on PostgreSQL covers the same guard",
  'server/auth/organisation-limit.test.ts': TIME,
  'server/features/mcp/mcp-batches.test.ts': TIME,
  'server/features/archives/archive-columns.test.ts': TIME,
  'server/realtime/realtime-hub.test.ts': TIME,
  'server/search/search-by-meaning.test.ts': TIME,
  'server/db/tenant.test.ts': PGLITE_ONLY,
  'server/db/pglite-thread.test.ts': PGLITE_ONLY,
  'server/search/index-document.test.ts': PGLITE_ONLY,
  'server/features/sql/sql-sandbox.test.ts': PGLITE_ONLY,
  'server/auth/revocation-relay.test.ts': CHECKED_ACROSS_INSTANCES,
  'server/http/database-rate-limit-store.test.ts': CHECKED_ACROSS_INSTANCES,
  'server/jobs/job-runner.test.ts': CHECKED_ACROSS_INSTANCES,
  'server/ops/stop-gracefully.test.ts': CHECKED_ACROSS_INSTANCES,
  'server/features/analysis/analysis.test.ts': ENGINES,
  'server/features/documents/extraction-limits.test.ts': ENGINES,
  'server/features/documents/ocr.test.ts': ENGINES,
  'server/features/documents/upload-bombs.test.ts': ENGINES,
  'server/features/documents/upload-limits.test.ts': ENGINES,
  'server/features/voice/memo-summary.test.ts': ENGINES,
  'server/features/voice/recording-media.test.ts': ENGINES,
  'server/features/voice/voice-jobs.test.ts': ENGINES,
  'server/features/voice/voice.test.ts': ENGINES,
  'server/features/voice/transcription-file.test.ts': ENGINES,
  'server/upload-routes.test.ts': ENGINES,
  'server/audit/audit-walk.test.ts': TIME,
  'server/audit/record-audit.test.ts': TIME,
  'server/auth/api-rate-limits.test.ts': TIME,
  'server/auth/organisation-delete.test.ts': TIME,
  'server/auth/organisation-input.test.ts': TIME,
  'server/auth/organisation-lookups.test.ts': TIME,
  'server/auth/organisation-oracles.test.ts': TIME,
  'server/auth/principal-cache.test.ts': TIME,
  'server/auth/principal.test.ts': TIME,
  'server/auth/sign-in-confirmation.test.ts': TIME,
  'server/auth/team-invitations.test.ts': TIME,
  'server/auth/user-names.test.ts': TIME,
  'server/blob/signed-links.test.ts': TIME,
  'server/db/assert-creator-or-admin.test.ts': TIME,
  'server/db/document-counts.test.ts': TIME,
  'server/db/entity-counts.test.ts': TIME,
  'server/lists/list-kit.test.ts': TIME,
  'server/documents/document-writes.test.ts': TIME,
  'server/events/record-event.test.ts': TIME,
  'server/features/api-keys/api-key-verifier.test.ts': TIME,
  'server/features/assistant/openai-engines.test.ts': TIME,
  'server/features/connect-gpt/assistant-openapi.test.ts': TIME,
  'server/features/connect-gpt/connect-gpt.test.ts': TIME,
  'server/features/demo/demo.test.ts': TIME,
  'server/features/documents/apps-scope.test.ts': TIME,
  'server/features/documents/document-input.test.ts': TIME,
  'server/features/documents/manage-documents.test.ts': TIME,
  'server/features/documents/reconcile-files.test.ts': TIME,
  'server/features/entities/csv-round-trip.test.ts': TIME,
  'server/features/entities/entity-input-limits.test.ts': TIME,
  'server/features/entities/import-files.test.ts': TIME,
  'server/features/entities/import-staging.test.ts': TIME,
  'server/features/assistant/chat-stream-admission.test.ts': TIME,
  'server/db/document-passages-kind.test.ts':
    "the migration's own statements on rows stored the old way; `migrate` runs the file itself on PostgreSQL",
  'server/features/mcp/mcp.test.ts': TIME,
  'server/features/storage/storage.test.ts': TIME,
  'server/features/archives/export.test.ts': TIME,
  'server/features/archives/import.test.ts': TIME,
  'server/features/archives/round-trip.test.ts': TIME,
  'server/features/archives/clone.test.ts': TIME,
  'server/features/documents/we-act-for.test.ts': TIME,
  'server/features/voice/reconcile-recordings.test.ts': TIME,
  'server/http/client-error.test.ts': TIME,
  'server/media/file-download.test.ts': TIME,
  'server/http/http.test.ts': TIME,
  'server/http/logger.test.ts': TIME,
  'server/http/same-origin.test.ts': TIME,
  'server/http/security-headers.test.ts': TIME,
  'server/ops/log-context.test.ts': TIME,
  'server/ops/metrics.test.ts': TIME,
  'server/realtime/change-feed.test.ts': TIME,
}
