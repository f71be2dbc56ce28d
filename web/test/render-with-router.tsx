/** Test helper: renders routes in a memory router with the app's providers and a toaster. */
import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { Toaster } from 'sonner'
import { TooltipProvider } from '../components/ui/tooltip'

/**
 * Renders `routes` (or `element` at `path`) starting at `initialPath`, with a fresh QueryClient
 * (no retries) and sonner's Toaster. Returns the Testing Library result plus the router.
 */
export function renderWithRouter(
  options:
    { routes: RouteObject[]; initialPath?: string } | { element: ReactElement; path?: string },
) {
  const routes =
    'routes' in options ? options.routes : [{ path: options.path ?? '/', element: options.element }]
  const initialPath = 'routes' in options ? (options.initialPath ?? '/') : (options.path ?? '/')
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] })
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
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
