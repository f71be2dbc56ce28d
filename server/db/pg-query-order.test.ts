import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import { queryInOrder } from './pg-query-order'

/** A client whose queries answer only when the test says so; records what was sent. */
function fakeClient() {
  const sent: string[] = []
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const client = {
    query: (text: string, ...rest: unknown[]) => {
      sent.push(text)
      const callback = rest.find((r) => typeof r === 'function') as
        ((...a: unknown[]) => void) | undefined
      if (callback) {
        callback(null, { rows: [text] })
        return undefined
      }
      return new Promise((resolve, reject) => pending.set(text, { resolve, reject }))
    },
  }
  return { client: client as unknown as pg.ClientBase, sent, pending }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('queryInOrder', () => {
  it('sends each query only after the previous one has answered, in the order asked', async () => {
    const { client, sent, pending } = fakeClient()
    queryInOrder(client)
    const first = client.query('BEGIN')
    const second = client.query('SELECT 1')
    const third = client.query('COMMIT')
    await tick()
    expect(sent).toEqual(['BEGIN'])
    pending.get('BEGIN')?.resolve('begun')
    await tick()
    expect(sent).toEqual(['BEGIN', 'SELECT 1'])
    pending.get('SELECT 1')?.resolve('one')
    await tick()
    pending.get('COMMIT')?.resolve('committed')
    await expect(Promise.all([first, second, third])).resolves.toEqual([
      'begun',
      'one',
      'committed',
    ])
  })

  it('goes on after a failed query and reports the failure to its own caller', async () => {
    const { client, sent, pending } = fakeClient()
    queryInOrder(client)
    const failing = client.query('SELECT broken')
    const next = client.query('ROLLBACK')
    await tick()
    pending.get('SELECT broken')?.reject(new Error('syntax error'))
    await expect(failing).rejects.toThrow('syntax error')
    await tick()
    expect(sent).toEqual(['SELECT broken', 'ROLLBACK'])
    pending.get('ROLLBACK')?.resolve('rolled back')
    await expect(next).resolves.toBe('rolled back')
  })

  it('passes callback-form queries straight through (pg-pool’s own pool.query)', async () => {
    const { client, sent } = fakeClient()
    queryInOrder(client)
    void client.query('SELECT slow')
    const answered = new Promise((resolve) =>
      (
        client.query as unknown as (
          t: string,
          v: unknown[],
          cb: (e: unknown, r: unknown) => void,
        ) => void
      )('SELECT now', [], (_error, result) => resolve(result)),
    )
    await expect(answered).resolves.toEqual({ rows: ['SELECT now'] })
    // answered while SELECT slow still waits for its answer: not held behind it
    expect(sent.sort()).toEqual(['SELECT now', 'SELECT slow'])
  })
})
