/**
 * One query at a time on a node-postgres client, in the order they were asked for. Lexdesk sends a
 * transaction's statements without waiting for the previous answer (withTenant's confining
 * statement, a page and its count sent together: decision 32). node-postgres 8 queues such calls
 * itself but deprecates it ("Calling client.query() when the client is already executing a query
 * is deprecated and will be removed in pg@9.0"), so each pooled client chains its promise-form
 * queries here instead. A failed query does not break the chain: the next one is sent, and inside
 * a transaction PostgreSQL refuses it, as it would have before.
 */
import type pg from 'pg'

type QueryArgs = Parameters<pg.ClientBase['query']>

/**
 * Wraps `client.query` so that each promise-form call is sent when the previous one has settled.
 * Callback-form and Submittable calls (pg-pool's own `pool.query`, cursors) pass straight
 * through: they do not overlap with others on a checked-out client. Returns the client.
 */
export function queryInOrder<C extends pg.ClientBase>(client: C): C {
  const send = client.query.bind(client) as (...args: QueryArgs) => unknown
  let previous: Promise<unknown> = Promise.resolve()
  const inOrder = (...args: QueryArgs): unknown => {
    const [config] = args
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === 'function'
    if (submittable || typeof args[args.length - 1] === 'function') return send(...args)
    const answer = previous.then(() => send(...args))
    previous = answer.catch(() => undefined)
    return answer
  }
  client.query = inOrder as C['query']
  return client
}
