/** Route table of the SPA (product spec §2) for React Router's data router. */
import { createBrowserRouter, type RouteObject } from 'react-router'
import { RootLayout } from './app/root-layout'
import { ErrorFallback } from './components/error-fallback'
import { PublicLayout } from './components/public-layout'
import { AnalyticsPage } from './features/analytics/analytics-page'
import { SignInPage } from './features/auth/sign-in-page'
import { ConnectGptPage } from './features/connect-gpt/connect-gpt-page'
import { ConversationsPage } from './features/conversations/conversations-page'
import { DashboardHomePage } from './features/dashboard/dashboard-home-page'
import { DashboardLayout } from './features/dashboard/dashboard-layout'
import { DemoPage } from './features/demo/demo-page'
import { DocumentsPage } from './features/documents/documents-page'
import { EntitiesPage } from './features/entities/entities-page'
import { EventsPage } from './features/events/events-page'
import { NotFoundPage } from './features/not-found/not-found-page'
import { SecurityPage } from './features/security/security-page'
import { SettingsPage } from './features/settings/settings-page'
import { SqlPage } from './features/sql/sql-page'
import { StoragePage } from './features/storage/storage-page'
import { VectorPage } from './features/vector/vector-page'
import { VoicePage } from './features/voice/voice-page'
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
          { path: '/demo', element: <DemoPage /> },
        ],
      },
      { path: '/auth', element: <SignInPage /> },
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [
          { index: true, element: <DashboardHomePage /> },
          { path: 'documents', element: <DocumentsPage /> },
          { path: 'voice', element: <VoicePage /> },
          { path: 'analytics', element: <AnalyticsPage /> },
          { path: 'entities', element: <EntitiesPage /> },
          { path: 'conversations', element: <ConversationsPage /> },
          { path: 'events', element: <EventsPage /> },
          { path: 'vector', element: <VectorPage /> },
          { path: 'security', element: <SecurityPage /> },
          { path: 'storage', element: <StoragePage /> },
          { path: 'sql', element: <SqlPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'connect-gpt', element: <ConnectGptPage /> },
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
