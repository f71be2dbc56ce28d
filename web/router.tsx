/**
 * Route table of the SPA (product spec §2) for React Router's data router. Every screen is loaded
 * lazily (its own chunk), so the landing page's JavaScript holds no dashboard code; the
 * organisation is the `:orgSlug` segment of every dashboard URL and the app its `?app=` parameter
 * (decision 0042).
 */
import { createBrowserRouter, type RouteObject } from 'react-router'
import type { QueryClient } from '@tanstack/react-query'
import { RootLayout } from './app/root-layout'
import { setRouteQueryClient } from './app/route-query-client'
import { ErrorFallback } from './components/error-fallback'
import { LoadingScreen } from './components/loading-screen'
import { PublicLayout } from './components/public-layout'
import { LandingPage } from './marketing/landing-page'
import { orgScreens } from './org-screens'

/** The screen names under `/dashboard/:orgSlug/` (the sidebar's links and the old addresses). */
const ORG_SCREENS = Object.keys(orgScreens)

const orgLessRoute =
  (screen: string): RouteObject['lazy'] =>
  async () => {
    const { OrgLessRoute } = await import('./app/org-less-route')
    return { element: <OrgLessRoute screen={screen} /> }
  }

/** Every route; exported so tests can build a memory router from the same table. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorFallback />,
    HydrateFallback: LoadingScreen,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          {
            path: '/features',
            lazy: async () => ({
              Component: (await import('./marketing/features-page')).FeaturesPage,
            }),
          },
          {
            path: '/pricing',
            lazy: async () => ({
              Component: (await import('./marketing/pricing-page')).PricingPage,
            }),
          },
          {
            path: '/demo',
            lazy: async () => ({ Component: (await import('./app/demo-route')).DemoRoute }),
          },
        ],
      },
      {
        path: '/auth',
        lazy: async () => ({
          Component: (await import('./features/auth/sign-in-page')).SignInPage,
        }),
      },
      {
        path: '/invitations/:invitationId',
        lazy: async () => ({
          Component: (await import('./features/auth/invitation-page')).InvitationPage,
        }),
      },
      {
        path: '/dashboard',
        lazy: async () => ({
          Component: (await import('./app/dashboard-layout')).DashboardLayout,
        }),
        children: [
          { index: true, lazy: orgLessRoute('') },
          ...ORG_SCREENS.map((screen) => ({ path: screen, lazy: orgLessRoute(screen) })),
          {
            path: ':orgSlug',
            lazy: async () => ({ Component: (await import('./app/org-layout')).OrgLayout }),
            children: [
              {
                index: true,
                lazy: async () => {
                  const [{ DashboardHomeRoute }, { dashboardHomeQueries }, { screenLoader }] =
                    await Promise.all([
                      import('./app/dashboard-home-route'),
                      import('./app/dashboard-home-queries'),
                      import('./app/screen-loader'),
                    ])
                  return {
                    Component: DashboardHomeRoute,
                    loader: screenLoader(dashboardHomeQueries),
                  }
                },
              },
              ...Object.entries(orgScreens).map(([path, lazy]) => ({ path, lazy })),
            ],
          },
        ],
      },
      {
        path: '*',
        lazy: async () => ({
          Component: (await import('./features/not-found/not-found-page')).NotFoundPage,
        }),
      },
    ],
  },
]

/**
 * Builds the browser router for `routes`; its screens' loaders start their first queries in
 * `queryClient` (the one the app provides) as the screen opens, without holding it back.
 */
export function createAppRouter(queryClient: QueryClient) {
  setRouteQueryClient(queryClient)
  return createBrowserRouter(routes)
}
