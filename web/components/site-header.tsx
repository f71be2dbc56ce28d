import { Link, NavLink } from 'react-router'
import { ScaleIcon } from 'lucide-react'
import { cn } from '../lib/utils'
import { Button } from './ui/button'

const links = [
  { to: '/features', label: 'Features' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/demo', label: 'Demo' },
]

/** Header of the public pages: brand, Features/Pricing/Demo links, Sign In and Get Started. */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-20 border-b bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-6 px-6">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md font-serif text-xl font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <ScaleIcon className="size-6 text-primary" aria-hidden="true" />
          Lexdesk
        </Link>
        <nav aria-label="Main" className="hidden gap-1 sm:flex">
          {links.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-3 py-2 text-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  isActive && 'font-medium text-foreground',
                )
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <Button asChild variant="ghost" size="sm">
            <Link to="/auth">Sign In</Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/auth">Get Started</Link>
          </Button>
        </div>
      </div>
    </header>
  )
}
