import { Outlet } from 'react-router'
import { SiteFooter } from './site-footer'
import { SiteHeader } from './site-header'

/** Frame of the marketing and demo pages: header, the page, footer. */
export function PublicLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <SiteHeader />
      <main id="main-content" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  )
}
