/** Route table of the SPA (product spec §2) for React Router's data router. */
import { createBrowserRouter, type RouteObject } from 'react-router'
import { DashboardLayout } from './app/dashboard-layout'
import { AssistantRoute } from './app/assistant-route'
import { DocumentsRoute } from './app/documents-route'
import { requireOrg } from './app/require-org-slot'
import { RootLayout } from './app/root-layout'
import { VoiceRoute } from './app/voice-route'
import { DemoRoute } from './app/demo-route'
import { ErrorFallback } from './components/error-fallback'
import { PublicLayout } from './components/public-layout'
import { AnalyticsPage } from './features/analytics/analytics-page'
import { SignInPage } from './features/auth/sign-in-page'
import { ConnectGptPage } from './features/connect-gpt/connect-gpt-page'
import { ConversationsPage } from './features/conversations/conversations-page'
import { DashboardHomePage } from './features/dashboard/dashboard-home-page'
import { EntitiesPage } from './features/entities/entities-page'
import { CreateFirstOrgCard } from './features/orgs/create-first-org-card'
import { EventsPage } from './features/events/events-page'
import { NotFoundPage } from './features/not-found/not-found-page'
import { SecurityPage } from './features/security/security-page'
import { SettingsPage } from './features/settings/settings-page'
import { SqlPage } from './features/sql/sql-page'
import { StoragePage } from './features/storage/storage-page'
import { VectorPage } from './features/vector/vector-page'
import { FeaturesPage } from './marketing/features-page'
import { LandingPage } from './marketing/landing-page'
import { PricingPage } from './marketing/pricing-page'

/** Every route; exported so tests can build a memory router from the same table. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorFallback />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          { path: '/features', element: <FeaturesPage /> },
          { path: '/pricing', element: <PricingPage /> },
          { path: '/demo', element: <DemoRoute /> },
        ],
      },
      { path: '/auth', element: <SignInPage /> },
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          {
            index: true,
            element: (
              <DashboardHomePage
                onboarding={<CreateFirstOrgCard />}
                assistant={<AssistantRoute />}
              />
            ),
          },
          { path: 'documents', element: <DocumentsRoute /> },
          { path: 'voice', element: <VoiceRoute /> },
          { path: 'analytics', element: <AnalyticsPage requireOrg={requireOrg} /> },
          { path: 'entities', element: <EntitiesPage requireOrg={requireOrg} /> },
          { path: 'conversations', element: <ConversationsPage requireOrg={requireOrg} /> },
          { path: 'events', element: <EventsPage requireOrg={requireOrg} /> },
          { path: 'vector', element: <VectorPage requireOrg={requireOrg} /> },
          { path: 'security', element: <SecurityPage requireOrg={requireOrg} /> },
          { path: 'storage', element: <StoragePage requireOrg={requireOrg} /> },
          { path: 'sql', element: <SqlPage requireOrg={requireOrg} /> },
          { path: 'settings', element: <SettingsPage requireOrg={requireOrg} /> },
          { path: 'connect-gpt', element: <ConnectGptPage requireOrg={requireOrg} /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

/** Builds the browser router for `routes`. */
export function createAppRouter() {
  return createBrowserRouter(routes)
}
