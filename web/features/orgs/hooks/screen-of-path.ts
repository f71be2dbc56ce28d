/**
 * The screen part of a dashboard path, so switching organisation keeps the screen:
 * '/dashboard/acme-k3v9/documents' → 'documents'; '/dashboard/acme-k3v9' and '/dashboard' → ''.
 */
export function screenOfPath(pathname: string): string {
  return /^\/dashboard\/[^/]+\/(.+?)\/?$/.exec(pathname)?.[1] ?? ''
}
