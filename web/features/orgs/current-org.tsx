/** The organisation (and optional app) the user is working in, remembered in localStorage. */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { appsQuery, orgsQuery, type AppSummary, type OrgSummary } from './api'

const ORG_STORAGE_KEY = 'lexdesk.currentOrgId'
const APP_STORAGE_KEY = 'lexdesk.currentAppId'

/** What `useCurrentOrg()` returns. */
export interface CurrentOrg {
  /** The user's organisations, sorted by name. */
  orgs: OrgSummary[]
  /** The chosen organisation: the stored one if still a member, else the first; null with none. */
  orgId: string | null
  /** Chooses an organisation; also clears the chosen app (its apps are reloaded). */
  setOrgId(id: string): void
  /** Apps of the current organisation, ordered by slug; empty with no organisation. */
  apps: AppSummary[]
  /** The chosen app, or null for 'All apps'. */
  appId: string | null
  setAppId(id: string | null): void
  /** True until the organisations (and the current organisation's apps) have loaded. */
  isLoading: boolean
  /** Why the organisations could not be loaded, if they could not. */
  error: Error | null
  refetchOrgs(): Promise<unknown>
}

const CurrentOrgContext = createContext<CurrentOrg | null>(null)

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null // storage disabled (private mode, sandboxed iframe)
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, value)
  } catch {
    // storage disabled: the choice lasts until reload, which is acceptable
  }
}

/** Loads the user's organisations and the current organisation's apps; mount inside the signed-in area. */
export function CurrentOrgProvider({ children }: { children: ReactNode }) {
  const orgsResult = useQuery(orgsQuery())
  const [storedOrgId, setStoredOrgId] = useState(() => readStorage(ORG_STORAGE_KEY))
  const [storedAppId, setStoredAppId] = useState(() => readStorage(APP_STORAGE_KEY))

  const orgs = useMemo(() => orgsResult.data ?? [], [orgsResult.data])
  const orgId = orgs.find((o) => o.id === storedOrgId)?.id ?? orgs[0]?.id ?? null

  const appsResult = useQuery({ ...appsQuery(orgId ?? ''), enabled: orgId !== null })
  const apps = useMemo(
    () => (orgId === null ? [] : (appsResult.data ?? [])),
    [orgId, appsResult.data],
  )
  const appId = apps.some((a) => a.id === storedAppId) ? storedAppId : null

  const setOrgId = useCallback((id: string) => {
    writeStorage(ORG_STORAGE_KEY, id)
    writeStorage(APP_STORAGE_KEY, null)
    setStoredOrgId(id)
    setStoredAppId(null)
  }, [])

  const setAppId = useCallback((id: string | null) => {
    writeStorage(APP_STORAGE_KEY, id)
    setStoredAppId(id)
  }, [])

  const { refetch } = orgsResult
  const refetchOrgs = useCallback(() => refetch(), [refetch])

  const isLoading = orgsResult.isPending || (orgId !== null && appsResult.isPending)
  const error = orgsResult.error

  const value = useMemo<CurrentOrg>(
    () => ({ orgs, orgId, setOrgId, apps, appId, setAppId, isLoading, error, refetchOrgs }),
    [orgs, orgId, setOrgId, apps, appId, setAppId, isLoading, error, refetchOrgs],
  )
  return <CurrentOrgContext.Provider value={value}>{children}</CurrentOrgContext.Provider>
}

/** The current organisation and app; throws if used outside `CurrentOrgProvider`. */
export function useCurrentOrg(): CurrentOrg {
  const value = useContext(CurrentOrgContext)
  if (value === null) throw new Error('useCurrentOrg must be used inside <CurrentOrgProvider>')
  return value
}
