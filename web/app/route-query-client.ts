/**
 * The QueryClient the route loaders warm (the one `main.tsx` provides to the screens), set once
 * by `createAppRouter`. A router built from the bare `routes` table (tests) has none, and its
 * loaders then ask nothing: each screen loads its own data as it would without a loader.
 */
import type { QueryClient } from '@tanstack/react-query'

let current: QueryClient | null = null

/** Sets (or, with null, clears) the client the loaders warm. */
export function setRouteQueryClient(client: QueryClient | null): void {
  current = client
}

/** The client the loaders warm, or null when the router was built without one. */
export function routeQueryClient(): QueryClient | null {
  return current
}
