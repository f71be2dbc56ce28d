/**
 * A steady stream of requests through a load balancer, for `npm run test:server`'s graceful-stop
 * check: `concurrency` loops, each sending the next of `paths` as soon as its last answer came,
 * until `stop()`. Every outcome is kept: the status, or `error: <message>` when the request
 * failed without an answer (a connection reset, a refused connection).
 */
export interface RequestStream {
  /** Ends the loops once their requests in flight are answered; resolves with every outcome. */
  stop(): Promise<Array<number | string>>
}

/** Starts the stream against `origin` (e.g. the load balancer's) over `paths`. */
export function streamRequests(
  origin: string,
  paths: string[],
  concurrency: number,
): RequestStream {
  const outcomes: Array<number | string> = []
  let running = true
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const res = await fetch(`${origin}${paths[i % paths.length]}`).then(
        async (r) => (await r.arrayBuffer(), r.status),
        (error: Error) => `error: ${error.message} (${String(error.cause ?? '')})`,
      )
      outcomes.push(res)
    }
  }
  const loops = Array.from({ length: concurrency }, (_, i) => loop(i))
  return {
    async stop() {
      running = false
      await Promise.all(loops)
      return outcomes
    },
  }
}
