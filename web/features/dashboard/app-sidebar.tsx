import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import {
  ActivityIcon,
  BarChart3Icon,
  BoxesIcon,
  DatabaseIcon,
  FileTextIcon,
  HardDriveIcon,
  LayoutDashboardIcon,
  MessagesSquareIcon,
  MicIcon,
  PlugIcon,
  ScaleIcon,
  SettingsIcon,
  ShieldCheckIcon,
  SquareTerminalIcon,
} from 'lucide-react'
import { NavLink, useLocation } from 'react-router'
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '../../components/ui/sidebar'

interface NavItem {
  title: string
  to: string
  icon: LucideIcon
}

const mainLinks: NavItem[] = [
  { title: 'Dashboard', to: '/dashboard', icon: LayoutDashboardIcon },
  { title: 'Documents', to: '/dashboard/documents', icon: FileTextIcon },
  { title: 'Voice Assistant', to: '/dashboard/voice', icon: MicIcon },
  { title: 'Analytics', to: '/dashboard/analytics', icon: BarChart3Icon },
]

const dataLinks: NavItem[] = [
  { title: 'Entities', to: '/dashboard/entities', icon: DatabaseIcon },
  { title: 'Conversations', to: '/dashboard/conversations', icon: MessagesSquareIcon },
  { title: 'Events', to: '/dashboard/events', icon: ActivityIcon },
  { title: 'Vector Store', to: '/dashboard/vector', icon: BoxesIcon },
  { title: 'Security', to: '/dashboard/security', icon: ShieldCheckIcon },
  { title: 'Storage', to: '/dashboard/storage', icon: HardDriveIcon },
  { title: 'SQL Runner', to: '/dashboard/sql', icon: SquareTerminalIcon },
]

const footerLinks: NavItem[] = [
  { title: 'Connect GPT', to: '/dashboard/connect-gpt', icon: PlugIcon },
  { title: 'Settings', to: '/dashboard/settings', icon: SettingsIcon },
]

function NavItems({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation()
  const { isMobile, setOpenMobile } = useSidebar()
  return (
    <SidebarMenu>
      {items.map((item) => {
        const active =
          pathname === item.to || (item.to !== '/dashboard' && pathname.startsWith(`${item.to}/`))
        return (
          <SidebarMenuItem key={item.to}>
            <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
              <NavLink to={item.to} end onClick={() => isMobile && setOpenMobile(false)}>
                <item.icon aria-hidden="true" />
                <span>{item.title}</span>
              </NavLink>
            </SidebarMenuButton>
          </SidebarMenuItem>
        )
      })}
    </SidebarMenu>
  )
}

/**
 * The dashboard's sidebar: brand, `workspaceSwitcher` (the organisation and app selectors, supplied
 * by the app layer) and the three link groups.
 */
export function AppSidebar({ workspaceSwitcher }: { workspaceSwitcher: ReactNode }) {
  return (
    <Sidebar id="app-sidebar" label="Dashboard navigation">
      <SidebarHeader>
        <NavLink
          to="/dashboard"
          className="flex h-10 items-center gap-2 rounded-md px-2 font-serif text-lg font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none group-data-[collapsible=icon]:px-1.5"
        >
          <ScaleIcon className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <span className="group-data-[collapsible=icon]:sr-only">Lexdesk</span>
        </NavLink>
        <div className="group-data-[collapsible=icon]:hidden">{workspaceSwitcher}</div>
      </SidebarHeader>
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupLabel>Workspace</SidebarGroupLabel>
          <NavItems items={mainLinks} />
        </SidebarGroup>
        <SidebarGroup>
          <SidebarGroupLabel>Data</SidebarGroupLabel>
          <NavItems items={dataLinks} />
        </SidebarGroup>
      </SidebarContent>
      <SidebarFooter>
        <NavItems items={footerLinks} />
      </SidebarFooter>
    </Sidebar>
  )
}
