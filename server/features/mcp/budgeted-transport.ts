/**
 * A Transport in front of the SDK's Streamable HTTP server transport that hands the MCP server
 * the messages of one POST one at a time, each only once the previous request has been answered,
 * and charges each to the caller's budget first (issue 41, decision 0105). The SDK's transport
 * delivers every message of a JSON-RPC batch at once (up to its own cap of 100), so without this a
 * single request could start a hundred searches in parallel and count as one request.
 *
 * A request whose charge is refused is not delivered: it is answered at once with the JSON-RPC
 * error `MCP_RATE_LIMITED` (its `data` carries `code: 'rate_limited'` and `retryAfter` in
 * seconds), while the requests before it keep their answers and the ones after it are charged in
 * turn (a budget that refilled meanwhile admits them). The SDK's transport still gathers every
 * answer of the batch into its one JSON response, in the batch's order.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'

/**
 * The JSON-RPC error code of a call refused by the rate limit: in the range JSON-RPC 2.0 §5.1
 * leaves to the server (-32000 to -32099), ending in the HTTP status it stands for (429).
 */
export const MCP_RATE_LIMITED = -32029

/**
 * Charges `message` to the caller's budget: resolves null when it may run, else the whole
 * seconds (at least 1) until the budget admits another.
 */
export type ChargeMessage = (message: JSONRPCMessage) => Promise<number | null>

/** `inner`, delivering its messages one at a time after `charge` admits each (module comment). */
export function budgetedTransport(inner: Transport, charge: ChargeMessage): Transport {
  // Each message waits for the previous one's charge and, for a request, its answer: so at most
  // one request is under way, the one `current` names.
  let queue: Promise<void> = Promise.resolve()
  let closed = false
  let current: { id: RequestId; answered: () => void } | undefined
  const release = () => {
    current?.answered()
    current = undefined
  }
  const reportError = (error: unknown) =>
    transport.onerror?.(error instanceof Error ? error : new Error(String(error)))

  const transport: Transport = {
    async start() {
      inner.onclose = () => {
        // Nothing will answer the request under way, nor hear the rest: let the queue drain.
        closed = true
        release()
        transport.onclose?.()
      }
      inner.onerror = (error) => transport.onerror?.(error)
      inner.onmessage = (message, extra) => {
        queue = queue.then(() => deliver(message, extra)).catch(reportError)
      }
      await inner.start()
    },
    async send(message: JSONRPCMessage, options?: TransportSendOptions) {
      try {
        await inner.send(message, options)
      } finally {
        const isAnswer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)
        if (isAnswer && message.id === current?.id) release()
      }
    },
    close: () => inner.close(),
  }

  /** Answers request `id` with a JSON-RPC error of its own, the server never seeing it. */
  const refuse = (id: RequestId, error: { code: number; message: string; data?: unknown }) =>
    inner.send({ jsonrpc: '2.0', id, error })

  async function deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): Promise<void> {
    if (closed) return
    const request = isJSONRPCRequest(message)
    let retryAfter: number | null
    try {
      retryAfter = await charge(message)
    } catch (error) {
      // The budget's store failed: the request is answered (the batch's answer waits for every
      // one of its requests), the cause goes to the server's log through onerror.
      reportError(error)
      if (request) await refuse(message.id, { code: -32603, message: 'internal_error' })
      return
    }
    if (retryAfter !== null) {
      // A refused notification or response has no one to answer: it is dropped.
      if (request) {
        await refuse(message.id, {
          code: MCP_RATE_LIMITED,
          message: `rate_limited: Too many requests: try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
          data: { code: 'rate_limited', retryAfter },
        })
      }
      return
    }
    if (!request) {
      transport.onmessage?.(message, extra)
      return
    }
    const answered = new Promise<void>((resolve) => {
      current = { id: message.id, answered: resolve }
    })
    transport.onmessage?.(message, extra)
    await answered
  }

  return transport
}
