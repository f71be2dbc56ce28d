import { Link } from 'react-router'
import { Button } from '../../components/ui/button'

/** Catch-all 404: 'Oops! Page not found' with a 'Return to Home' link to /. */
export function NotFoundPage() {
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 p-6">
      <title>Page not found · Lexdesk</title>
      <div className="space-y-4 text-center">
        <p className="font-serif text-6xl font-semibold text-primary">404</p>
        <h1 className="font-serif text-2xl font-semibold">Oops! Page not found</h1>
        <p className="text-muted-foreground">
          The page you are looking for does not exist or has moved.
        </p>
        <Button asChild>
          <Link to="/">Return to Home</Link>
        </Button>
      </div>
    </main>
  )
}
