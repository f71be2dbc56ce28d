import { AlertTriangleIcon } from 'lucide-react'
import { Button } from './ui/button'

/**
 * Screen for an unexpected render error (the router's errorElement). Uses full page loads, not the
 * router, because the router itself may be what failed.
 */
export function ErrorFallback() {
  return (
    <main className="flex min-h-svh items-center justify-center p-6">
      <div role="alert" className="max-w-md space-y-4 text-center">
        <AlertTriangleIcon className="mx-auto size-10 text-destructive" aria-hidden="true" />
        <h1 className="font-serif text-2xl font-semibold">Something went wrong</h1>
        <p className="text-sm text-muted-foreground">
          An unexpected error occurred. Refresh the page to try again; if it keeps happening, tell
          your administrator.
        </p>
        <div className="flex justify-center gap-3">
          <Button type="button" onClick={() => window.location.reload()}>
            Refresh Page
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => window.location.assign('/dashboard')}
          >
            Go to Dashboard
          </Button>
        </div>
      </div>
    </main>
  )
}
