import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { PickList } from './pick-list'

const items = [
  { id: 'a', name: 'Alpha' },
  { id: 'b', name: 'Beta' },
]

describe('PickList', () => {
  it('says loading, a failure and an empty list in words', () => {
    const { rerender } = render(
      <PickList
        label="Reviews"
        query={{ status: 'pending', data: undefined, error: null }}
        open={null}
        onOpen={() => {}}
      >
        {(item: { id: string }) => item.id}
      </PickList>,
    )
    expect(screen.getByText('Loading…')).toBeVisible()
    rerender(
      <PickList
        label="Reviews"
        query={{ status: 'error', data: undefined, error: new Error('offline') }}
        open={null}
        onOpen={() => {}}
      >
        {(item: { id: string }) => item.id}
      </PickList>,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('The reviews could not be loaded: offline')
    rerender(
      <PickList
        label="Reviews"
        query={{ status: 'success', data: { items: [] }, error: null }}
        open={null}
        onOpen={() => {}}
      >
        {(item: { id: string }) => item.id}
      </PickList>,
    )
    expect(screen.getByText('No reviews yet.')).toBeVisible()
  })

  it('marks the open item and opens the one clicked', async () => {
    const onOpen = vi.fn()
    render(
      <PickList
        label="Reviews"
        query={{ status: 'success', data: { items }, error: null }}
        open="b"
        onOpen={onOpen}
      >
        {(item) => item.name}
      </PickList>,
    )
    const nav = screen.getByRole('navigation', { name: 'Reviews' })
    expect(nav).toBeVisible()
    expect(screen.getByRole('button', { name: 'Beta' })).toHaveAttribute('aria-current', 'page')
    expect(screen.getByRole('button', { name: 'Alpha' })).not.toHaveAttribute('aria-current')
    await userEvent.click(screen.getByRole('button', { name: 'Alpha' }))
    expect(onOpen).toHaveBeenCalledWith('a')
  })
})
