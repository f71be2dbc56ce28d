/**
 * The screens under `/dashboard/:orgSlug` of the route table (web/router.tsx), each loading its
 * module only when opened. The same names without an organisation (`/dashboard/documents`, the
 * addresses before decision 0042) redirect to the last organisation used. Kept apart from the
 * router, without JSX or static imports of screens, so the Playwright check of small screens
 * (e2e/small-screens.spec.ts) reads the same list and visits a screen added here without being
 * edited.
 */
import type { RouteObject } from 'react-router'

export const orgScreens: Record<string, RouteObject['lazy']> = {
  documents: async () => ({ Component: (await import('./app/documents-route')).DocumentsRoute }),
  voice: async () => ({ Component: (await import('./features/voice/voice-page')).VoicePage }),
  analytics: async () => ({
    Component: (await import('./features/analytics/analytics-page')).AnalyticsPage,
  }),
  entities: async () => ({
    Component: (await import('./features/entities/entities-page')).EntitiesPage,
  }),
  conversations: async () => ({
    Component: (await import('./features/conversations/conversations-page')).ConversationsPage,
  }),
  events: async () => ({ Component: (await import('./features/events/events-page')).EventsPage }),
  jobs: async () => ({ Component: (await import('./features/jobs/jobs-page')).JobsPage }),
  vector: async () => ({ Component: (await import('./features/vector/vector-page')).VectorPage }),
  members: async () => ({
    Component: (await import('./features/team/members-page')).MembersPage,
  }),
  audit: async () => ({ Component: (await import('./features/audit/audit-page')).AuditPage }),
  security: async () => ({
    Component: (await import('./features/security/security-page')).SecurityPage,
  }),
  storage: async () => ({
    Component: (await import('./features/storage/storage-page')).StoragePage,
  }),
  sql: async () => ({ Component: (await import('./features/sql/sql-page')).SqlPage }),
  settings: async () => ({
    Component: (await import('./app/settings-route')).SettingsRoute,
  }),
  'connect-gpt': async () => ({
    Component: (await import('./features/connect-gpt/connect-gpt-page')).ConnectGptPage,
  }),
}
