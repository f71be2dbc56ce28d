import { Outlet, ScrollRestoration } from 'react-router'

/** Top route element: the matched page plus scroll restoration between pages. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  )
}
