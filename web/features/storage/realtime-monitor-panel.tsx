import { useEffect, useRef, useState } from 'react'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { useOrgScope } from '../../lib/org-scope'
import { openRealtimeSocket, sendSubscription, type RealtimeMessage } from '../../hooks/realtime'

/** Entries the log keeps, newest last (spec section 7: the realtime log keeps 200 entries). */
export const LOG_LIMIT = 200

interface LogEntry {
  id: number
  time: Date
  text: string
}

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })

/** The log line of a server message: a state line for (un)subscriptions, else the payload. */
function lineOf(message: RealtimeMessage): string {
  if (message.type === 'subscribed') return `subscribed ${message.table}`
  if (message.type === 'unsubscribed') return `unsubscribed ${message.table}`
  return JSON.stringify(message)
}

/**
 * The Realtime Monitor of the storage screen: subscribes to every change of one `schema.table`
 * of the current organisation and logs each (time and payload), keeping the last LOG_LIMIT
 * entries, with 'subscribed' and 'disconnected' lines as the channel opens and closes.
 */
export function RealtimeMonitorPanel() {
  const { orgId } = useOrgScope()
  const [schema, setSchema] = useState('public')
  const [table, setTable] = useState('entities')
  const [log, setLog] = useState<LogEntry[]>([])
  const [connected, setConnected] = useState(false)
  const socket = useRef<WebSocket | null>(null)
  const nextId = useRef(0)

  const append = (text: string) =>
    setLog((entries) =>
      [...entries, { id: nextId.current++, time: new Date(), text }].slice(-LOG_LIMIT),
    )

  useEffect(() => () => socket.current?.close(1000, 'Monitor closed'), [orgId])

  const subscribe = () => {
    const name = `${schema.trim()}.${table.trim()}`
    const open = socket.current
    if (open && open.readyState === WebSocket.OPEN) {
      sendSubscription(open, 'subscribe', name)
      return
    }
    const next = openRealtimeSocket(orgId, (message) => append(lineOf(message)))
    socket.current = next
    next.addEventListener('open', () => {
      setConnected(true)
      sendSubscription(next, 'subscribe', name)
    })
    next.addEventListener('close', () => {
      if (socket.current === next) socket.current = null
      setConnected(false)
      append('disconnected')
    })
  }

  const unsubscribe = () => socket.current?.close(1000, 'Unsubscribed')

  return (
    <Card role="region" aria-label="Realtime Monitor">
      <CardHeader>
        <CardTitle>Realtime Monitor</CardTitle>
        <CardDescription>
          Every change to a table of this organization, as it happens.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {/* A form, so Enter in Schema or Table subscribes as the button does. */}
        <form
          aria-label="Realtime subscription"
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            if (schema.trim() && table.trim()) subscribe()
          }}
        >
          <div className="flex flex-col gap-1">
            <Label htmlFor="realtime-schema">Schema</Label>
            <Input
              id="realtime-schema"
              value={schema}
              onChange={(e) => setSchema(e.target.value)}
              className="w-32"
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="realtime-table">Table</Label>
            <Input
              id="realtime-table"
              value={table}
              onChange={(e) => setTable(e.target.value)}
              className="w-40"
            />
          </div>
          <Button type="submit" disabled={!schema.trim() || !table.trim()}>
            Subscribe
          </Button>
          <Button type="button" variant="outline" onClick={unsubscribe} disabled={!connected}>
            Unsubscribe
          </Button>
        </form>
        <ol
          aria-label="Realtime events"
          aria-live="polite"
          className="max-h-80 overflow-y-auto rounded-md border bg-muted/30 p-2 font-mono text-xs"
        >
          {log.length === 0 && <li className="text-muted-foreground">No events yet.</li>}
          {log.map((entry) => (
            <li key={entry.id} className="break-all">
              <time dateTime={entry.time.toISOString()} className="text-muted-foreground">
                {timeOfDay.format(entry.time)}
              </time>{' '}
              {entry.text}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  )
}
