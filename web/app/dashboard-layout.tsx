import { Outlet } from 'react-router'
import { SidebarInset, SidebarProvider } from '../components/ui/sidebar'
import { RequireAuth } from '../features/auth/require-auth'
import { AppSidebar } from '../features/dashboard/app-sidebar'
import { TopBar } from '../features/dashboard/top-bar'
import { CurrentOrgProvider } from '../features/orgs/current-org'
import { WorkspaceSwitcher } from '../features/orgs/workspace-switcher'

/** Shell of every /dashboard route: sign-in guard, current organisation, sidebar and top bar. */
export function DashboardLayout() {
  return (
    <RequireAuth>
      <CurrentOrgProvider>
        <SidebarProvider>
          <a
            href="#main-content"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow"
          >
            Skip to content
          </a>
          <AppSidebar workspaceSwitcher={<WorkspaceSwitcher />} />
          <SidebarInset>
            <TopBar />
            <main id="main-content" tabIndex={-1} className="flex-1 p-4 outline-none md:p-8">
              <Outlet />
            </main>
          </SidebarInset>
        </SidebarProvider>
      </CurrentOrgProvider>
    </RequireAuth>
  )
}
