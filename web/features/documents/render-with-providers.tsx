/** Test helper: renders UI in a memory router and a fresh QueryClient (no retries) with a Toaster. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router'
import { toast, Toaster } from 'sonner'

/** Renders `ui` with the providers the documents screen needs; toasts render into the DOM. */
export function renderWithProviders(ui: ReactElement) {
  // sonner keeps toasts in a module-level store and replays active ones to a new Toaster, so
  // toasts from an earlier test would reappear; dismissing them all isolates each test.
  toast.dismiss()
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{ui}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  )
}
