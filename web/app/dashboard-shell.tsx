import type { ReactNode } from 'react'
import { SidebarInset, SidebarProvider } from '../components/ui/sidebar'
import { TooltipProvider } from '../components/ui/tooltip'
import { AppSidebar } from '../features/dashboard/app-sidebar'
import { TopBar } from '../features/dashboard/top-bar'
import { WorkspaceSwitcher } from '../features/orgs/components/workspace-switcher'

/**
 * The dashboard's chrome around `children`: skip link, sidebar (with the organisation switcher)
 * and top bar. Its links carry the URL's organisation when rendered under one. The tooltip
 * provider lives here, not in main.tsx, so the landing page does not load Radix's popper.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider>
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
            {children}
          </main>
        </SidebarInset>
      </SidebarProvider>
    </TooltipProvider>
  )
}
