/**
 * The slug of the organisation this browser last opened, kept in localStorage only as a hint for
 * addresses without one (`/dashboard`, old `/dashboard/documents` links): the URL, not this value,
 * is each tab's current organisation, so two tabs never overwrite each other's (decision 0042).
 */
const KEY = 'lexdesk.lastOrgSlug'

/** The remembered slug, or null (none yet, or storage disabled). */
export function readLastOrgHint(): string | null {
  try {
    return window.localStorage.getItem(KEY)
  } catch {
    return null // storage disabled (private mode, sandboxed iframe)
  }
}

/** Remembers `slug` as the last organisation opened. */
export function writeLastOrgHint(slug: string): void {
  try {
    window.localStorage.setItem(KEY, slug)
  } catch {
    // storage disabled: old links then open the first organisation, which is acceptable
  }
}
