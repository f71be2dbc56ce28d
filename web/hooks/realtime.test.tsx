import { act, renderHook } from '@testing-library/react'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { FakeWebSocket } from '../test/fake-web-socket'
import { useLiveRefresh } from './realtime'

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  )
  const fetchList = vi.fn(() => Promise.resolve(['row']))
  const hook = renderHook(
    () => {
      useLiveRefresh('org-1', ['public.entities'], ['orgs', 'org-1', 'entities'])
      useLiveRefresh('org-1', ['public.events'], ['orgs', 'org-1', 'events'])
      return useQuery({ queryKey: ['orgs', 'org-1', 'entities', 'list'], queryFn: fetchList })
    },
    { wrapper },
  )
  return { fetchList, hook }
}

describe('useLiveRefresh', () => {
  it("refetches a screen's queries when its table changes, over one socket per organisation", async () => {
    const { fetchList, hook } = setup()
    // Loaded first: a change during the first load is covered by that load itself.
    await vi.waitFor(() => expect(hook.result.current.isSuccess).toBe(true))
    expect(FakeWebSocket.opened).toHaveLength(1)
    const socket = FakeWebSocket.opened[0] as FakeWebSocket
    act(() => socket.open())
    expect(socket.sent).toEqual([
      { type: 'subscribe', table: 'public.entities' },
      { type: 'subscribe', table: 'public.events' },
    ])
    act(() => socket.receive({ type: 'change', table: 'public.events', op: 'insert' }))
    expect(fetchList).toHaveBeenCalledTimes(1)
    act(() => socket.receive({ type: 'change', table: 'public.entities', op: 'insert' }))
    await vi.waitFor(() => expect(fetchList).toHaveBeenCalledTimes(2))
    hook.unmount()
    expect(socket.readyState).toBe(FakeWebSocket.CLOSED)
  })

  it('does not reconnect a socket closed because the session ended', async () => {
    vi.useFakeTimers()
    const { hook } = setup()
    const socket = FakeWebSocket.opened[0] as FakeWebSocket
    act(() => socket.open())
    act(() => socket.close(4401, 'Signed out'))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(FakeWebSocket.opened).toHaveLength(1)
    hook.unmount()
  })

  it.each([
    [4403, 'No longer a member of this organisation'],
    [1008, 'Too many messages: at most 10 a second'],
  ])(
    'does not reconnect a socket the server closed with %i (it would refuse it again)',
    async (code, reason) => {
      vi.useFakeTimers()
      const { hook } = setup()
      const socket = FakeWebSocket.opened[0] as FakeWebSocket
      act(() => socket.open())
      act(() => socket.close(code, reason))
      await vi.advanceTimersByTimeAsync(120_000)
      expect(FakeWebSocket.opened).toHaveLength(1)
      hook.unmount()
      vi.useRealTimers()
    },
  )

  it('waits twice as long after each attempt that did not open (an upgrade refused), and 3 s again once one opens', async () => {
    vi.useFakeTimers()
    const { hook } = setup()
    const opened = () => FakeWebSocket.opened.length
    const latest = () => FakeWebSocket.opened.at(-1) as FakeWebSocket
    // Refused twice (429 at the upgrade shows as a close without an open): 6 s, then 12 s.
    act(() => latest().close(1006))
    await vi.advanceTimersByTimeAsync(5_999)
    expect(opened()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(opened()).toBe(2)
    act(() => latest().close(1006))
    await vi.advanceTimersByTimeAsync(11_999)
    expect(opened()).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(opened()).toBe(3)
    // Opened, then dropped: the next attempt comes after the first delay again.
    act(() => latest().open())
    act(() => latest().close(1006))
    await vi.advanceTimersByTimeAsync(3_000)
    expect(opened()).toBe(4)
    hook.unmount()
    vi.useRealTimers()
  })
})
