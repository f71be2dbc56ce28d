import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import {
  ActivityIcon,
  BarChart3Icon,
  BoxesIcon,
  DatabaseIcon,
  FileTextIcon,
  GaugeIcon,
  GitCompareIcon,
  BookCheckIcon,
  HardDriveIcon,
  LayoutDashboardIcon,
  MessagesSquareIcon,
  MicIcon,
  PlugIcon,
  ScaleIcon,
  SettingsIcon,
  ShieldCheckIcon,
  SquareTerminalIcon,
  TableIcon,
  UsersIcon,
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
import { orgPath } from '../../lib/org-path'
import { useOrgScopeIfAny, type OrgUrlScope } from '../../lib/org-scope'

interface NavItem {
  title: string
  /** The screen's path segment under `/dashboard/:orgSlug` ('' for the organisation's home). */
  screen: string
  icon: LucideIcon
}

const mainLinks: NavItem[] = [
  { title: 'Dashboard', screen: '', icon: LayoutDashboardIcon },
  { title: 'Documents', screen: 'documents', icon: FileTextIcon },
  { title: 'Reviews', screen: 'reviews', icon: TableIcon },
  { title: 'Comparisons', screen: 'comparisons', icon: GitCompareIcon },
  { title: 'Playbooks', screen: 'playbooks', icon: BookCheckIcon },
  { title: 'Voice Assistant', screen: 'voice', icon: MicIcon },
  { title: 'Analytics', screen: 'analytics', icon: BarChart3Icon },
]

const dataLinks: NavItem[] = [
  { title: 'Entities', screen: 'entities', icon: DatabaseIcon },
  { title: 'Conversations', screen: 'conversations', icon: MessagesSquareIcon },
  { title: 'Events', screen: 'events', icon: ActivityIcon },
  { title: 'Jobs', screen: 'jobs', icon: GaugeIcon },
  { title: 'Vector Store', screen: 'vector', icon: BoxesIcon },
  { title: 'Members', screen: 'members', icon: UsersIcon },
  { title: 'Security', screen: 'security', icon: ShieldCheckIcon },
  { title: 'Storage', screen: 'storage', icon: HardDriveIcon },
  { title: 'SQL Runner', screen: 'sql', icon: SquareTerminalIcon },
]

const footerLinks: NavItem[] = [
  { title: 'Connect GPT', screen: 'connect-gpt', icon: PlugIcon },
  { title: 'Settings', screen: 'settings', icon: SettingsIcon },
]

function NavItems({ items, scope }: { items: NavItem[]; scope: OrgUrlScope }) {
  const { pathname } = useLocation()
  const { isMobile, setOpenMobile } = useSidebar()
  return (
    <SidebarMenu>
      {items.map((item) => {
        const to = orgPath(scope, item.screen)
        const path = orgPath({ orgSlug: scope.orgSlug }, item.screen)
        const active = pathname === path || (item.screen !== '' && pathname.startsWith(`${path}/`))
        return (
          <SidebarMenuItem key={item.screen}>
            <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
              <NavLink to={to} end onClick={() => isMobile && setOpenMobile(false)}>
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
 * by the app layer) and the three link groups, which keep the URL's organisation and app (none
 * outside an organisation's URL).
 */
export function AppSidebar({ workspaceSwitcher }: { workspaceSwitcher: ReactNode }) {
  const scope = useOrgScopeIfAny()
  return (
    <Sidebar id="app-sidebar" label="Dashboard navigation">
      <SidebarHeader>
        <NavLink
          to={scope ? orgPath(scope) : '/dashboard'}
          className="flex h-10 items-center gap-2 rounded-md px-2 font-serif text-lg font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none group-data-[collapsible=icon]:px-1.5"
        >
          <ScaleIcon className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <span className="group-data-[collapsible=icon]:sr-only">Lexdesk</span>
        </NavLink>
        <div className="group-data-[collapsible=icon]:hidden">{workspaceSwitcher}</div>
      </SidebarHeader>
      {scope ? (
        <>
          <SidebarContent>
            <SidebarGroup>
              <SidebarGroupLabel>Workspace</SidebarGroupLabel>
              <NavItems items={mainLinks} scope={scope} />
            </SidebarGroup>
            <SidebarGroup>
              <SidebarGroupLabel>Data</SidebarGroupLabel>
              <NavItems items={dataLinks} scope={scope} />
            </SidebarGroup>
          </SidebarContent>
          <SidebarFooter>
            <NavItems items={footerLinks} scope={scope} />
          </SidebarFooter>
        </>
      ) : null}
    </Sidebar>
  )
}
