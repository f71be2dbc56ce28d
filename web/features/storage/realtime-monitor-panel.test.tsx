import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { FakeWebSocket } from '../../test/fake-web-socket'
import { inOrgScope } from '../../test/in-org-scope'
import { LOG_LIMIT, RealtimeMonitorPanel } from './realtime-monitor-panel'

const entries = () =>
  within(screen.getByRole('list', { name: 'Realtime events' })).queryAllByRole('listitem')

/** Renders the monitor, subscribes to `schema.table` and opens its socket. */
function subscribed(schema: string, table: string): FakeWebSocket {
  render(inOrgScope(<RealtimeMonitorPanel />))
  fireEvent.change(screen.getByLabelText('Schema'), { target: { value: schema } })
  fireEvent.change(screen.getByLabelText('Table'), { target: { value: table } })
  fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
  const socket = FakeWebSocket.opened.at(-1)
  if (!socket) throw new Error('no socket opened')
  act(() => socket.open())
  return socket
}

describe('RealtimeMonitorPanel', () => {
  it("subscribes the organisation's channel to schema.table and logs 'subscribed'", () => {
    const socket = subscribed('public', 'documents')
    expect(socket.url).toMatch(/\/api\/v1\/orgs\/org-1\/realtime$/)
    expect(socket.sent).toEqual([{ type: 'subscribe', table: 'public.documents' }])
    act(() => socket.receive({ type: 'subscribed', table: 'public.documents', appId: null }))
    expect(entries().at(-1)).toHaveTextContent('subscribed public.documents')
  })

  it('subscribes when Enter is pressed in the Table field', async () => {
    const user = userEvent.setup()
    render(inOrgScope(<RealtimeMonitorPanel />))
    const before = FakeWebSocket.opened.length
    await user.clear(screen.getByLabelText('Table'))
    await user.type(screen.getByLabelText('Table'), 'documents{Enter}')
    expect(FakeWebSocket.opened).toHaveLength(before + 1)
    const socket = FakeWebSocket.opened.at(-1)
    if (!socket) throw new Error('no socket opened')
    act(() => socket.open())
    expect(socket.sent).toEqual([{ type: 'subscribe', table: 'public.documents' }])
  })

  it('logs each change with its time and payload, keeping the last 200', () => {
    const socket = subscribed('public', 'entities')
    act(() => {
      for (let i = 0; i < LOG_LIMIT + 5; i++) {
        socket.receive({ type: 'change', table: 'public.entities', op: 'insert', ids: [`e-${i}`] })
      }
    })
    expect(entries()).toHaveLength(LOG_LIMIT)
    expect(entries()[0]).toHaveTextContent('"e-5"')
    expect(entries().at(-1)).toHaveTextContent(`"e-${LOG_LIMIT + 4}"`)
    expect(entries().at(-1)?.querySelector('time')).not.toBeNull()
  })

  it("logs 'disconnected' when the server closes the channel, and Unsubscribe closes it", () => {
    const socket = subscribed('public', 'entities')
    act(() => socket.close(4401, 'Signed out'))
    expect(entries().at(-1)).toHaveTextContent('disconnected')
    expect(screen.getByRole('button', { name: 'Unsubscribe' })).toBeDisabled()
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }))
    const again = FakeWebSocket.opened.at(-1) as FakeWebSocket
    act(() => again.open())
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }))
    expect(again.readyState).toBe(FakeWebSocket.CLOSED)
  })
})
