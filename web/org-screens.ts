/**
 * The screens under `/dashboard/:orgSlug` of the route table (web/router.tsx), each loading its
 * module only when opened. The same names without an organisation (`/dashboard/documents`, the
 * addresses before decision 0042) redirect to the last organisation used. Kept apart from the
 * router, without JSX or static imports of screens, so the Playwright check of small screens
 * (e2e/small-screens.spec.ts) reads the same list and visits a screen added here without being
 * edited.
 *
 * A screen moved onto the web kit also has a loader (web/app/screen-loader.ts) starting the
 * first query it shows, with the screen's own query options, without waiting for it (the screen
 * opens on its loading state and takes up the request); its modules load with the screen's
 * (dynamic imports), keeping the landing page's chunk as it was.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { RouteObject } from 'react-router'

const loaders = () => import('./app/screen-loader')

export const orgScreens: Record<string, RouteObject['lazy']> = {
  documents: async () => {
    const [{ DocumentsRoute }, { documentListQuery, documentQuery }, { screenLoader }] =
      await Promise.all([
        import('./app/documents-route'),
        import('./features/documents/api/documents-api'),
        loaders(),
      ])
    return {
      Component: DocumentsRoute,
      // The library as it opens (no search, all types; useDocumentLibrary), and the document
      // a link opens (`?document=`).
      loader: screenLoader(({ orgId, appId, search }) => {
        const documentId = search.get('document')
        return [
          (client) => client.prefetchQuery(documentListQuery(orgId, { q: '', type: 'all', appId })),
          ...(documentId
            ? [(client: QueryClient) => client.prefetchQuery(documentQuery(orgId, documentId))]
            : []),
        ]
      }),
    }
  },
  voice: async () => {
    const [{ VoicePage }, { consentQuery }, { recordingsQuery }, { screenLoader }] =
      await Promise.all([
        import('./features/voice/voice-page'),
        import('./features/voice/api/consent'),
        import('./features/voice/api/recordings'),
        loaders(),
      ])
    return {
      Component: VoicePage,
      // Whether the recorder shows (the consent notice first), and the recordings below it.
      loader: screenLoader(({ orgId, appId }) => [
        (client) => client.prefetchQuery(consentQuery(orgId)),
        (client) => client.prefetchQuery(recordingsQuery(orgId, appId)),
      ]),
    }
  },
  analytics: async () => {
    const [{ AnalyticsPage }, { usageQuery }, { activityQuery }, { screenLoader }] =
      await Promise.all([
        import('./features/analytics/analytics-page'),
        import('./features/analytics/api'),
        import('./hooks/activity'),
        loaders(),
      ])
    return {
      Component: AnalyticsPage,
      // The page opens on the last 30 days (its default period).
      loader: screenLoader(({ orgId, appId }) => [
        (client) => client.prefetchQuery(usageQuery(orgId, appId, 30)),
        (client) => client.prefetchQuery(activityQuery(orgId, appId)),
      ]),
    }
  },
  entities: async () => {
    const [{ EntitiesPage }, { entityListQuery }, { DEFAULT_PAGE_SIZE }, { sortParam }] =
      await Promise.all([
        import('./features/entities/entities-page'),
        import('./features/entities/api/entities-api'),
        import('./features/entities/paging'),
        import('./features/entities/sort-spec'),
      ])
    const { screenLoader } = await loaders()
    return {
      Component: EntitiesPage,
      // The table as it opens (useEntityList): no search or type, default sort, page 1.
      loader: screenLoader(({ orgId, appId, search }) => [
        (client) =>
          client.prefetchQuery(
            entityListQuery(orgId, {
              id: search.get('entity'),
              q: '',
              type: '',
              appId,
              sort: sortParam([]),
              page: 1,
              pageSize: DEFAULT_PAGE_SIZE,
            }),
          ),
      ]),
    }
  },
  conversations: async () => {
    const [{ ConversationsPage }, { conversationsQuery, messagesQuery }, { screenLoader }] =
      await Promise.all([
        import('./features/conversations/conversations-page'),
        import('./features/conversations/api'),
        loaders(),
      ])
    return {
      Component: ConversationsPage,
      // The first page, and the messages of the conversation the address opens (an audit link).
      loader: screenLoader(({ orgId, appId, search }) => {
        const open = search.get('conversation')
        return [
          (client) => client.prefetchInfiniteQuery(conversationsQuery(orgId, appId)),
          ...(open
            ? [(client: QueryClient) => client.prefetchQuery(messagesQuery(orgId, open))]
            : []),
        ]
      }),
    }
  },
  events: async () => {
    const [{ EventsPage }, { eventsQuery }, { screenLoader }] = await Promise.all([
      import('./features/events/events-page'),
      import('./features/events/api'),
      loaders(),
    ])
    return {
      Component: EventsPage,
      loader: screenLoader(({ orgId }) => [
        (client) => client.prefetchQuery(eventsQuery(orgId, '')),
      ]),
    }
  },
  jobs: async () => {
    const [{ JobsPage }, { runningJobsQuery }, { screenLoader }] = await Promise.all([
      import('./features/jobs/jobs-page'),
      import('./features/jobs/api'),
      loaders(),
    ])
    return {
      Component: JobsPage,
      loader: screenLoader(({ orgId }) => [
        (client) => client.prefetchQuery(runningJobsQuery(orgId)),
      ]),
    }
  },
  reviews: async () => {
    const [{ ReviewsPage }, { reviewListQuery, reviewQuery }, { screenLoader }] = await Promise.all(
      [import('./features/reviews/reviews-page'), import('./features/reviews/api'), loaders()],
    )
    return {
      Component: ReviewsPage,
      // The list of reviews, and the review the address opens (`?review=`).
      loader: screenLoader(({ orgId, search }) => {
        const open = search.get('review')
        return [
          (client) => client.prefetchQuery(reviewListQuery(orgId)),
          ...(open
            ? [(client: QueryClient) => client.prefetchQuery(reviewQuery(orgId, open))]
            : []),
        ]
      }),
    }
  },
  comparisons: async () => {
    const [{ ComparisonsPage }, { comparisonListQuery, comparisonQuery }, { screenLoader }] =
      await Promise.all([
        import('./features/comparisons/comparisons-page'),
        import('./features/comparisons/api'),
        loaders(),
      ])
    return {
      Component: ComparisonsPage,
      // The list of comparisons, and the comparison the address opens (`?comparison=`).
      loader: screenLoader(({ orgId, search }) => {
        const open = search.get('comparison')
        return [
          (client) => client.prefetchQuery(comparisonListQuery(orgId)),
          ...(open
            ? [(client: QueryClient) => client.prefetchQuery(comparisonQuery(orgId, open))]
            : []),
        ]
      }),
    }
  },
  playbooks: async () => {
    const [{ PlaybooksPage }, { playbookListQuery, playbookQuery }, { screenLoader }] =
      await Promise.all([
        import('./features/playbooks/playbooks-page'),
        import('./features/playbooks/api'),
        loaders(),
      ])
    return {
      Component: PlaybooksPage,
      // The list of playbooks, and the playbook the address opens (`?playbook=`).
      loader: screenLoader(({ orgId, search }) => {
        const open = search.get('playbook')
        return [
          (client) => client.prefetchQuery(playbookListQuery(orgId)),
          ...(open
            ? [(client: QueryClient) => client.prefetchQuery(playbookQuery(orgId, open))]
            : []),
        ]
      }),
    }
  },
  vector: async () => ({ Component: (await import('./features/vector/vector-page')).VectorPage }),
  members: async () => {
    const [{ MembersPage }, { membersQuery, invitationsQuery }, { managesOrganisation }] =
      await Promise.all([
        import('./features/team/members-page'),
        import('./features/team/api'),
        import('./lib/org-role'),
      ])
    const { screenLoader } = await loaders()
    return {
      Component: MembersPage,
      // Every member reads the list; only owners and admins the invitations (as the screen asks).
      loader: screenLoader(({ orgId, role }) => [
        (client) => client.prefetchQuery(membersQuery(orgId)),
        ...(managesOrganisation(role)
          ? [(client: QueryClient) => client.prefetchQuery(invitationsQuery(orgId))]
          : []),
      ]),
    }
  },
  audit: async () => {
    const [{ AuditPage }, { auditPagesQuery, NO_AUDIT_FILTERS }, { managesOrganisation }] =
      await Promise.all([
        import('./features/audit/audit-page'),
        import('./features/audit/api'),
        import('./lib/org-role'),
      ])
    const { screenLoader } = await loaders()
    return {
      Component: AuditPage,
      // Members are told the log is not theirs; nothing is asked for them.
      loader: screenLoader(({ orgId, role }) =>
        managesOrganisation(role)
          ? [(client) => client.prefetchInfiniteQuery(auditPagesQuery(orgId, NO_AUDIT_FILTERS))]
          : [],
      ),
    }
  },
  security: async () => {
    const [{ SecurityPage }, { apiKeysQuery }, { tenantTokensQuery }, { managesOrganisation }] =
      await Promise.all([
        import('./features/security/security-page'),
        import('./features/security/api-keys-api'),
        import('./features/security/tenant-tokens-api'),
        import('./lib/org-role'),
      ])
    const { screenLoader } = await loaders()
    return {
      Component: SecurityPage,
      loader: screenLoader(({ orgId, role }) =>
        managesOrganisation(role)
          ? [
              (client) => client.prefetchQuery(apiKeysQuery(orgId)),
              (client) => client.prefetchQuery(tenantTokensQuery(orgId)),
            ]
          : [],
      ),
    }
  },
  storage: async () => {
    const [{ StoragePage }, { bucketsQuery }, { screenLoader }] = await Promise.all([
      import('./features/storage/storage-page'),
      import('./features/storage/storage-api'),
      loaders(),
    ])
    return {
      Component: StoragePage,
      loader: screenLoader(({ orgId }) => [(client) => client.prefetchQuery(bucketsQuery(orgId))]),
    }
  },
  sql: async () => {
    const [{ SqlPage }, { sqlHistoryQuery }, { managesOrganisation }, { screenLoader }] =
      await Promise.all([
        import('./features/sql/sql-page'),
        import('./features/sql/api'),
        import('./lib/org-role'),
        loaders(),
      ])
    return {
      Component: SqlPage,
      loader: screenLoader(({ orgId, role }) =>
        managesOrganisation(role) ? [(client) => client.prefetchQuery(sqlHistoryQuery(orgId))] : [],
      ),
    }
  },
  settings: async () => {
    const [{ SettingsRoute }, { ownedOrgsQuery }, { screenLoader }] = await Promise.all([
      import('./app/settings-route'),
      import('./features/orgs/api/orgs'),
      loaders(),
    ])
    return {
      Component: SettingsRoute,
      // The import's targets; only an owner is shown the panels that read them.
      loader: screenLoader(({ role }) =>
        role === 'owner' ? [(client) => client.prefetchQuery(ownedOrgsQuery())] : [],
      ),
    }
  },
  'connect-gpt': async () => ({
    Component: (await import('./features/connect-gpt/connect-gpt-page')).ConnectGptPage,
  }),
}
