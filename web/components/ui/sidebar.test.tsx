import { beforeEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {
  Sidebar,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
} from './sidebar'
import { TooltipProvider } from './tooltip'

function clearSidebarCookie() {
  document.cookie = 'sidebar_state=; path=/; max-age=0'
}

function renderSidebar() {
  return render(
    <TooltipProvider>
      <SidebarProvider>
        <Sidebar label="Test navigation">
          <SidebarMenu>
            <SidebarMenuItem>
              <SidebarMenuButton tooltip="Inbox">
                <span>Inbox</span>
              </SidebarMenuButton>
            </SidebarMenuItem>
          </SidebarMenu>
        </Sidebar>
        <SidebarInset>
          <SidebarTrigger />
        </SidebarInset>
      </SidebarProvider>
    </TooltipProvider>,
  )
}

function sidebarElement() {
  const nav = screen.getByRole('navigation', { name: 'Test navigation' })
  return nav.closest('[data-slot="sidebar"]')
}

describe('Sidebar', () => {
  beforeEach(clearSidebarCookie)

  it('collapses and expands with Ctrl+B and remembers the state in the sidebar_state cookie', async () => {
    renderSidebar()
    expect(sidebarElement()).toHaveAttribute('data-state', 'expanded')

    await userEvent.keyboard('{Control>}b{/Control}')
    expect(sidebarElement()).toHaveAttribute('data-state', 'collapsed')
    expect(document.cookie).toContain('sidebar_state=false')
    expect(screen.getByRole('button', { name: 'Toggle sidebar' })).toHaveAttribute(
      'aria-expanded',
      'false',
    )

    await userEvent.keyboard('{Control>}b{/Control}')
    expect(sidebarElement()).toHaveAttribute('data-state', 'expanded')
    expect(document.cookie).toContain('sidebar_state=true')
  })

  it('toggles with Cmd+B and with the Toggle sidebar button', async () => {
    renderSidebar()
    await userEvent.keyboard('{Meta>}b{/Meta}')
    expect(sidebarElement()).toHaveAttribute('data-state', 'collapsed')

    await userEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }))
    expect(sidebarElement()).toHaveAttribute('data-state', 'expanded')
  })

  it('starts collapsed when the cookie says so, keeping item names for screen readers', () => {
    document.cookie = 'sidebar_state=false; path=/'
    renderSidebar()
    expect(sidebarElement()).toHaveAttribute('data-state', 'collapsed')
    expect(screen.getByRole('button', { name: 'Inbox' })).toBeInTheDocument()
  })
})
