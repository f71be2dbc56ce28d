import { LogOutIcon } from 'lucide-react'
import { Button } from '../../components/ui/button'
import { SidebarTrigger } from '../../components/ui/sidebar'
import { authClient } from '../../lib/auth-client'
import { useSignOut } from './use-sign-out'

/** Header of the dashboard: sidebar toggle, the signed-in e-mail and 'Sign Out'. */
export function TopBar() {
  const { data: session } = authClient.useSession()
  const { signOut, isPending } = useSignOut()
  return (
    <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur">
      <SidebarTrigger aria-controls="app-sidebar" />
      <div className="ml-auto flex min-w-0 items-center gap-3">
        {session?.user.email ? (
          <span className="truncate text-sm text-muted-foreground" title="Signed in as">
            {session.user.email}
          </span>
        ) : null}
        <Button variant="outline" size="sm" onClick={() => void signOut()} disabled={isPending}>
          <LogOutIcon aria-hidden="true" />
          Sign Out
        </Button>
      </div>
    </header>
  )
}
