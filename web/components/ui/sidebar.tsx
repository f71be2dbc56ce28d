/**
 * Collapsible sidebar after shadcn/ui's sidebar: 16rem wide, an 18rem sheet below 768 px, 3rem
 * icon-only when collapsed; toggled by SidebarTrigger or Ctrl/Cmd+B; open state kept 7 days in the
 * `sidebar_state` cookie.
 */
import * as React from 'react'
import * as DialogPrimitive from '@radix-ui/react-dialog'
import { Slot } from '@radix-ui/react-slot'
import { PanelLeftIcon } from 'lucide-react'
import { cn } from '../../lib/utils'
import { Button } from './button'
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip'

const SIDEBAR_COOKIE_NAME = 'sidebar_state'
const SIDEBAR_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 7
const SIDEBAR_WIDTH = '16rem'
const SIDEBAR_WIDTH_MOBILE = '18rem'
const SIDEBAR_WIDTH_ICON = '3rem'
const SIDEBAR_KEYBOARD_SHORTCUT = 'b'
const MOBILE_QUERY = '(max-width: 767px)'

interface SidebarContextValue {
  state: 'expanded' | 'collapsed'
  open: boolean
  setOpen(open: boolean): void
  openMobile: boolean
  setOpenMobile(open: boolean): void
  isMobile: boolean
  toggleSidebar(): void
}

const SidebarContext = React.createContext<SidebarContextValue | null>(null)

/** The sidebar's state and toggles; throws outside SidebarProvider. */
export function useSidebar(): SidebarContextValue {
  const context = React.useContext(SidebarContext)
  if (!context) throw new Error('useSidebar must be used within a SidebarProvider.')
  return context
}

function subscribeToMobileQuery(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {}
  const mql = window.matchMedia(MOBILE_QUERY)
  mql.addEventListener('change', onChange)
  return () => mql.removeEventListener('change', onChange)
}

function isMobileViewport(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches
}

/** True below 768 px wide, following window resizes. */
export function useIsMobile(): boolean {
  return React.useSyncExternalStore(subscribeToMobileQuery, isMobileViewport, () => false)
}

function readOpenCookie(): boolean | undefined {
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${SIDEBAR_COOKIE_NAME}=(true|false)`))
  return match ? match[1] === 'true' : undefined
}

export interface SidebarProviderProps extends React.ComponentProps<'div'> {
  /** Used when no `sidebar_state` cookie exists. */
  defaultOpen?: boolean
  /** Controlled open state (desktop). */
  open?: boolean
  onOpenChange?(open: boolean): void
}

/** Holds sidebar state, restores it from the cookie and listens for Ctrl/Cmd+B. */
export function SidebarProvider({
  defaultOpen = true,
  open: openProp,
  onOpenChange,
  className,
  style,
  children,
  ...props
}: SidebarProviderProps) {
  const isMobile = useIsMobile()
  const [openMobile, setOpenMobile] = React.useState(false)
  const [internalOpen, setInternalOpen] = React.useState(() => readOpenCookie() ?? defaultOpen)
  const open = openProp ?? internalOpen

  const setOpen = React.useCallback(
    (value: boolean) => {
      if (onOpenChange) onOpenChange(value)
      else setInternalOpen(value)
      document.cookie = `${SIDEBAR_COOKIE_NAME}=${value}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`
    },
    [onOpenChange],
  )

  const toggleSidebar = React.useCallback(() => {
    if (isMobile) setOpenMobile((o) => !o)
    else setOpen(!open)
  }, [isMobile, open, setOpen])

  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT &&
        (event.metaKey || event.ctrlKey)
      ) {
        event.preventDefault()
        toggleSidebar()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggleSidebar])

  const state = open ? 'expanded' : 'collapsed'
  const value = React.useMemo<SidebarContextValue>(
    () => ({ state, open, setOpen, isMobile, openMobile, setOpenMobile, toggleSidebar }),
    [state, open, setOpen, isMobile, openMobile, toggleSidebar],
  )

  return (
    <SidebarContext.Provider value={value}>
      <div
        data-slot="sidebar-wrapper"
        style={
          {
            '--sidebar-width': SIDEBAR_WIDTH,
            '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
            ...style,
          } as React.CSSProperties
        }
        className={cn('flex min-h-svh w-full', className)}
        {...props}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  )
}

export interface SidebarProps extends React.ComponentProps<'div'> {
  /** Accessible name of the navigation landmark. */
  label?: string
}

/** The sidebar itself: a sticky column on desktop, a modal sheet on mobile. */
export function Sidebar({ className, children, label = 'Sidebar', id, ...props }: SidebarProps) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar()

  if (isMobile) {
    return (
      <DialogPrimitive.Root open={openMobile} onOpenChange={setOpenMobile}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40" />
          <DialogPrimitive.Content
            id={id}
            data-slot="sidebar"
            data-mobile="true"
            aria-describedby={undefined}
            className="fixed inset-y-0 left-0 z-50 flex h-full w-(--sidebar-width) flex-col bg-sidebar text-sidebar-foreground shadow-lg"
            style={{ '--sidebar-width': SIDEBAR_WIDTH_MOBILE } as React.CSSProperties}
          >
            <DialogPrimitive.Title className="sr-only">{label}</DialogPrimitive.Title>
            <nav aria-label={label} className="flex h-full w-full flex-col">
              {children}
            </nav>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    )
  }

  return (
    <div
      id={id}
      data-slot="sidebar"
      data-state={state}
      data-collapsible={state === 'collapsed' ? 'icon' : ''}
      className={cn(
        'group peer sticky top-0 hidden h-svh shrink-0 border-r border-sidebar-border bg-sidebar text-sidebar-foreground transition-[width] duration-200 ease-linear md:flex',
        state === 'collapsed' ? 'w-(--sidebar-width-icon)' : 'w-(--sidebar-width)',
        className,
      )}
      {...props}
    >
      <nav aria-label={label} className="flex h-full w-full flex-col overflow-hidden">
        {children}
      </nav>
    </div>
  )
}

/** Button that opens/closes the sidebar (accessible name 'Toggle sidebar'). */
export function SidebarTrigger({
  className,
  onClick,
  ...props
}: React.ComponentProps<typeof Button>) {
  const { toggleSidebar, open, openMobile, isMobile } = useSidebar()
  return (
    <Button
      data-slot="sidebar-trigger"
      variant="ghost"
      size="icon"
      type="button"
      aria-label="Toggle sidebar"
      aria-expanded={isMobile ? openMobile : open}
      aria-keyshortcuts="Control+B Meta+B"
      title="Toggle sidebar (Ctrl/Cmd+B)"
      className={cn('size-8', className)}
      onClick={(event) => {
        onClick?.(event)
        toggleSidebar()
      }}
      {...props}
    >
      <PanelLeftIcon aria-hidden="true" />
    </Button>
  )
}

/** The main column next to the sidebar. */
export function SidebarInset({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-inset"
      className={cn('relative flex min-w-0 flex-1 flex-col bg-background', className)}
      {...props}
    />
  )
}

/** Top area of the sidebar (brand, selectors). */
export function SidebarHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-header"
      className={cn('flex flex-col gap-2 p-2', className)}
      {...props}
    />
  )
}

/** Bottom area of the sidebar. */
export function SidebarFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-footer"
      className={cn('mt-auto flex flex-col gap-2 border-t border-sidebar-border p-2', className)}
      {...props}
    />
  )
}

/** Scrollable middle of the sidebar. */
export function SidebarContent({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-content"
      className={cn(
        'flex min-h-0 flex-1 flex-col gap-2 overflow-auto group-data-[collapsible=icon]:overflow-hidden',
        className,
      )}
      {...props}
    />
  )
}

/** A titled group of menu items. */
export function SidebarGroup({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-group"
      className={cn('relative flex w-full min-w-0 flex-col p-2', className)}
      {...props}
    />
  )
}

/** Heading of a SidebarGroup; hidden (still read by screen readers) when collapsed. */
export function SidebarGroupLabel({ className, children, ...props }: React.ComponentProps<'h2'>) {
  return (
    <h2
      data-slot="sidebar-group-label"
      className={cn(
        'flex h-8 shrink-0 items-center px-2 text-xs font-medium tracking-wide text-sidebar-foreground/70 uppercase group-data-[collapsible=icon]:sr-only',
        className,
      )}
      {...props}
    >
      {children}
    </h2>
  )
}

/** List of menu items. */
export function SidebarMenu({ className, ...props }: React.ComponentProps<'ul'>) {
  return (
    <ul
      data-slot="sidebar-menu"
      className={cn('flex w-full min-w-0 flex-col gap-1', className)}
      {...props}
    />
  )
}

/** One entry of a SidebarMenu. */
export function SidebarMenuItem({ className, ...props }: React.ComponentProps<'li'>) {
  return <li data-slot="sidebar-menu-item" className={cn('relative', className)} {...props} />
}

export interface SidebarMenuButtonProps extends React.ComponentProps<'button'> {
  /** Render the child (e.g. a router link) instead of a <button>. */
  asChild?: boolean
  isActive?: boolean
  /** Shown beside the icon when the sidebar is collapsed to icons. */
  tooltip?: string
}

/**
 * Menu entry: an icon then a text <span>. When collapsed the text becomes screen-reader-only, so the
 * entry keeps its accessible name, and `tooltip` shows it on hover/focus.
 */
export function SidebarMenuButton({
  asChild = false,
  isActive = false,
  tooltip,
  className,
  ...props
}: SidebarMenuButtonProps) {
  const { state, isMobile } = useSidebar()
  const Comp = asChild ? Slot : 'button'
  const button = (
    <Comp
      data-slot="sidebar-menu-button"
      data-active={isActive}
      className={cn(
        'flex h-8 w-full items-center gap-2 overflow-hidden rounded-md px-2 text-left text-sm outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[active=true]:text-sidebar-accent-foreground group-data-[collapsible=icon]:size-8 group-data-[collapsible=icon]:p-2 [&>span:last-child]:truncate [&>span:last-child]:group-data-[collapsible=icon]:sr-only [&>svg]:size-4 [&>svg]:shrink-0',
        className,
      )}
      {...props}
    />
  )
  if (!tooltip || state !== 'collapsed' || isMobile) return button
  return (
    <Tooltip>
      <TooltipTrigger asChild>{button}</TooltipTrigger>
      <TooltipContent side="right" align="center">
        {tooltip}
      </TooltipContent>
    </Tooltip>
  )
}
