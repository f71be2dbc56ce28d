/**
 * `at` relative to `now` in words, "5 minutes ago", "yesterday", "3 days ago" (Intl's
 * RelativeTimeFormat in the browser's language), the largest whole unit, up to weeks; older
 * moments as a date.
 */
export function formatRelativeTime(at: Date, now: Date): string {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000)
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ]
  if (Math.abs(seconds) >= 5 * 604_800) return at.toLocaleDateString()
  for (const [unit, size] of units)
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit)
  return format.format(0, 'second')
}
