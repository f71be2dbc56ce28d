/** Date formatting for document timestamps. */

const formatter = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** Formats an ISO 8601 timestamp as a date in the user's locale, e.g. '12 Mar 2026'. */
export function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : formatter.format(date)
}
