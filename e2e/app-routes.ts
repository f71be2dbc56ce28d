/**
 * The web app's routes for the specs that visit every screen (small screens, accessibility): the
 * pages outside an organisation (web/router.tsx) and the screens under /dashboard/:orgSlug/, read
 * from the route table's own list (web/org-screens.ts), so a screen added there is visited too.
 */

/** The routes outside an organisation (web/router.tsx), with a sample id where one is named. */
export const PUBLIC_PATHS = [
  '/',
  '/features',
  '/pricing',
  '/demo',
  '/auth',
  '/invitations/00000000-0000-4000-8000-000000000000',
  '/no-such-page',
]

/**
 * The screen names under /dashboard/:orgSlug/, read from the module the router builds them
 * from. Imported by a computed specifier at run time: type-checking it here would follow its
 * lazy imports into every screen's JSX, which the e2e program does not compile.
 */
export async function orgScreenNames(): Promise<string[]> {
  const specifier = new URL('../web/org-screens.ts', import.meta.url).href
  const { orgScreens } = (await import(specifier)) as { orgScreens: Record<string, unknown> }
  return Object.keys(orgScreens)
}
