/**
 * The database's change announcements (the triggers of migration 0033 on channel
 * 'lexdesk_changes'), parsed and handed to the listeners of each table. One listen per process,
 * whatever the number of listeners.
 */
import { z } from 'zod'
import type { Notifier } from './notifier'
import { isRealtimeTable, type RealtimeTableName } from './realtime-tables'

/** The channel the change triggers notify on. */
export const CHANGES_CHANNEL = 'lexdesk_changes'

/** One statement's changes to the rows of one organisation (and app) in one table. */
export const TableChangeSchema = z.object({
  table: z.string().refine(isRealtimeTable, 'not a realtime table'),
  op: z.enum(['insert', 'update', 'delete']),
  org_id: z.string().min(1),
  app_id: z.string().nullable(),
  count: z.number().int().positive(),
  /** The changed rows' ids as text; null when there were more than 100 (the trigger's cap). */
  ids: z.array(z.string()).nullable(),
})

export type TableChange = Omit<z.infer<typeof TableChangeSchema>, 'table'> & {
  table: RealtimeTableName
}

type Listener = (change: TableChange) => void

export class ChangeFeed {
  private readonly listeners = new Map<string, Set<Listener>>()
  private stop: (() => Promise<void>) | undefined

  constructor(
    private readonly notifier: Notifier,
    private readonly log: { warn(fields: object, message: string): void },
  ) {}

  /** Starts listening (once; later calls do nothing). */
  async start(): Promise<void> {
    this.stop ??= await this.notifier.listen(CHANGES_CHANNEL, (payload) => this.deliver(payload))
  }

  /** Stops listening. */
  async close(): Promise<void> {
    const stop = this.stop
    this.stop = undefined
    await stop?.()
  }

  /** Calls `listener` with each change to `table`; returns the function that stops it. */
  subscribe(table: RealtimeTableName, listener: Listener): () => void {
    let set = this.listeners.get(table)
    if (!set) this.listeners.set(table, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0) this.listeners.delete(table)
    }
  }

  private deliver(payload: string): void {
    let parsed: ReturnType<typeof TableChangeSchema.safeParse>
    try {
      parsed = TableChangeSchema.safeParse(JSON.parse(payload))
    } catch {
      parsed = TableChangeSchema.safeParse(undefined)
    }
    if (!parsed.success) {
      this.log.warn({ issues: parsed.error.issues.length }, 'ignored a malformed change notice')
      return
    }
    const change = parsed.data as TableChange
    for (const listener of this.listeners.get(change.table) ?? []) {
      try {
        listener(change)
      } catch (error) {
        this.log.warn({ err: error }, 'a change listener failed')
      }
    }
  }
}
