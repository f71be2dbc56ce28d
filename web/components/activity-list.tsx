import { Link } from 'react-router'
import { describeActivity, type ActivityItem } from '../hooks/activity'
import { formatRelativeTime } from '../lib/format-relative-time'

/** A line's text: shrinks beside the time and wraps, long words included. */
const WRAPPED = 'min-w-0 [overflow-wrap:anywhere]'

/**
 * The recent-activity list of the home and analytics: who did what, when, each line linking to
 * the object it names (in `scope`'s organisation and app). `items` undefined while loading;
 * `error` (the failed load's, whose message is the server's problem detail) replaces the list.
 */
export function ActivityList({
  items,
  error = null,
  scope,
  now = new Date(),
}: {
  items: ActivityItem[] | undefined
  error?: Error | null
  scope: { orgSlug: string; appSlug: string | null }
  /** The moment times are relative to (tests pass a fixed one). */
  now?: Date
}) {
  if (error)
    return (
      <p role="alert" className="text-sm text-destructive">
        The activity could not be loaded: {error.message}
      </p>
    )
  if (items === undefined) return <p className="text-sm text-muted-foreground">Loading…</p>
  if (items.length === 0) return <p className="text-sm text-muted-foreground">No activity yet.</p>
  return (
    <ul className="divide-y text-sm" aria-label="Recent activity">
      {items.map((item) => {
        const { text, to } = describeActivity(item, scope)
        return (
          // The whole action, wrapped (a long title breaks anywhere), never cut off with an ellipsis.
          <li key={item.id} className="flex items-start justify-between gap-4 py-3">
            {to ? (
              <Link to={to} className={`${WRAPPED} hover:underline`}>
                {text}
              </Link>
            ) : (
              <span className={WRAPPED}>{text}</span>
            )}
            <time dateTime={item.createdAt} className="shrink-0 text-xs text-muted-foreground">
              {formatRelativeTime(new Date(item.createdAt), now)}
            </time>
          </li>
        )
      })}
    </ul>
  )
}
