/** Test helper: renders routes in a memory router with the app's providers and a toaster. */
import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { Toaster } from 'sonner'
import { TooltipProvider } from '../components/ui/tooltip'

/** A QueryClient as the tests use it: no retries. */
export function testQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
}

/**
 * Renders `routes` (or `element` at `path`) starting at `initialPath`, with `queryClient` or a fresh
 * one (no retries) and sonner's Toaster. Returns the Testing Library result plus the router.
 */
export function renderWithRouter(
  options:
    | { routes: RouteObject[]; initialPath?: string; queryClient?: QueryClient }
    | { element: ReactElement; path?: string; queryClient?: QueryClient },
) {
  const routes =
    'routes' in options ? options.routes : [{ path: options.path ?? '/', element: options.element }]
  const initialPath = 'routes' in options ? (options.initialPath ?? '/') : (options.path ?? '/')
  const queryClient = options.queryClient ?? testQueryClient()
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] })
  const result = render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>,
  )
  return { ...result, router, queryClient }
}
