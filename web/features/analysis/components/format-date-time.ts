/** Date formatting for analysis timestamps. */

const formatter = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** Formats an ISO 8601 timestamp in the user's locale, e.g. '12 Mar 2026, 14:03'. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : formatter.format(date)
}
