/** Navigation to the same screen in another organisation or app (the URL is the current scope). */
import { useCallback } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { orgPath } from '../../../lib/org-path'
import { screenOfPath } from './screen-of-path'

/**
 * `open({ orgSlug, appSlug })` navigates to the current screen in that organisation and app. The
 * screen's other search parameters (an open document) belong to the old scope and are dropped.
 */
export function useOpenScope() {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  return useCallback(
    (scope: { orgSlug: string; appSlug?: string | null }) =>
      navigate(orgPath(scope, screenOfPath(pathname))),
    [navigate, pathname],
  )
}
