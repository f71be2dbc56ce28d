import { Outlet } from 'react-router'
import { RequireAuth } from '../features/auth/require-auth'

/** Route element of /dashboard and everything under it: the sign-in guard. */
export function DashboardLayout() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  )
}
