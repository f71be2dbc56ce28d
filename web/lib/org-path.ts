/**
 * The address of a dashboard screen in one organisation (and app):
 * `orgPath({ orgSlug: 'acme-k3v9', appSlug: 'tax' }, 'documents', { document: 'd1' })` →
 * `/dashboard/acme-k3v9/documents?app=tax&document=d1`. `screen` '' is the organisation's home.
 * Every dashboard link is built here, so every link carries its organisation (decision 0042).
 */
export function orgPath(
  scope: { orgSlug: string; appSlug?: string | null },
  screen = '',
  params: Record<string, string> = {},
): string {
  const search = new URLSearchParams()
  if (scope.appSlug) search.set('app', scope.appSlug)
  for (const [key, value] of Object.entries(params)) search.set(key, value)
  const query = search.size > 0 ? `?${search}` : ''
  const base = `/dashboard/${encodeURIComponent(scope.orgSlug)}`
  return `${screen ? `${base}/${screen}` : base}${query}`
}
