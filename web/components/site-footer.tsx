import { Link } from 'react-router'
import { ScaleIcon } from 'lucide-react'

/** Footer of the public pages. */
export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-6 py-10 text-sm sm:grid-cols-3">
        <div className="space-y-2">
          <p className="flex items-center gap-2 font-serif text-lg font-semibold">
            <ScaleIcon className="size-5 text-primary" aria-hidden="true" />
            Lexdesk
          </p>
          <p className="text-muted-foreground">
            The self-hosted AI workspace for law firms. Open source under the AGPL.
          </p>
        </div>
        <nav aria-label="Product" className="space-y-2">
          <h2 className="font-medium">Product</h2>
          <ul className="space-y-1 text-muted-foreground">
            <li>
              <Link className="hover:text-foreground" to="/features">
                Features
              </Link>
            </li>
            <li>
              <Link className="hover:text-foreground" to="/pricing">
                Pricing
              </Link>
            </li>
            <li>
              <Link className="hover:text-foreground" to="/demo">
                Demo
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal" className="space-y-2">
          <h2 className="font-medium">Legal</h2>
          <ul className="space-y-1 text-muted-foreground">
            <li>
              <Link className="hover:text-foreground" to="/auth#terms">
                Terms of Service
              </Link>
            </li>
            <li>
              <Link className="hover:text-foreground" to="/auth#privacy">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link className="hover:text-foreground" to="/auth">
                Sign In
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="border-t py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} Lexdesk contributors. AI output is an aid, not legal advice.
      </p>
    </footer>
  )
}
