import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { MemoSummaryView } from './memo-summary-view'

const SUMMARY = {
  keyPoints: [{ text: 'Landlord wants twelve percent more rent', segment: 1, start: 12 }],
  decisions: [{ text: 'Reject rent increase', segment: 2, start: 20 }],
  actionItems: [
    {
      text: 'Tom Baker: send revised draft to landlord (due Friday)',
      task: 'Send revised draft to landlord',
      owner: 'Tom Baker',
      due: 'Friday',
      segment: 3,
      start: 65,
    },
    {
      text: 'Unassigned: call surveyor',
      task: 'Call surveyor',
      owner: null,
      due: null,
      segment: 4,
      start: 70,
    },
  ],
  names: [{ name: 'Tom Baker', segment: 3, start: 65 }],
}

describe('MemoSummaryView', () => {
  it('lists key points, decisions, action items with owner and due date, and names', () => {
    render(<MemoSummaryView title="Lease call" summary={SUMMARY} onCite={() => undefined} />)
    const region = screen.getByRole('region', { name: 'Summary of Lease call' })
    expect(within(region).getByRole('list', { name: 'Key points' })).toHaveTextContent(
      'Landlord wants twelve percent more rent',
    )
    expect(within(region).getByRole('list', { name: 'Decisions' })).toHaveTextContent(
      'Reject rent increase',
    )
    const actions = within(within(region).getByRole('list', { name: 'Action items' })).getAllByRole(
      'listitem',
    )
    expect(actions.map((a) => a.textContent)).toEqual([
      '1:05Tom Baker — Send revised draft to landlord · due Friday',
      '1:10Unassigned — Call surveyor',
    ])
    expect(within(region).getByRole('list', { name: 'Names' })).toHaveTextContent('Tom Baker')
  })

  it('says how many segments the engine heard with low confidence and marks the points taken from them', () => {
    const heard = [1, 2, 3, 4, 5].map((n) => ({ lowConfidence: n === 3 || n === 4 }))
    render(
      <MemoSummaryView
        title="Lease call"
        summary={SUMMARY}
        onCite={() => undefined}
        segments={heard}
      />,
    )
    expect(screen.getByRole('note')).toHaveTextContent(
      '2 of 5 segments of this memo were heard with low confidence by the speech engine (points taken from them are marked): check against the audio before relying on this summary.',
    )
    const decisions = screen.getByRole('list', { name: 'Decisions' })
    expect(decisions).toHaveTextContent('Reject rent increase(low confidence)')
    expect(screen.getByRole('list', { name: 'Key points' })).not.toHaveTextContent('low confidence')
    const actions = within(screen.getByRole('list', { name: 'Action items' })).getAllByRole(
      'listitem',
    )
    expect(actions.map((a) => a.textContent?.endsWith('(low confidence)'))).toEqual([true, false])
  })

  it('plays from the cited segment when its time is clicked', async () => {
    const onCite = vi.fn()
    render(<MemoSummaryView title="Lease call" summary={SUMMARY} onCite={onCite} />)
    await userEvent.click(
      screen.getByRole('button', { name: 'Play from 0:20: Reject rent increase' }),
    )
    expect(onCite).toHaveBeenCalledWith(20)
  })

  it('says so when the memo has nothing to summarise', () => {
    render(
      <MemoSummaryView
        title="Empty"
        summary={{ keyPoints: [], decisions: [], actionItems: [], names: [] }}
        onCite={() => undefined}
      />,
    )
    expect(screen.getByText('Nothing to summarise in this memo.')).toBeInTheDocument()
  })
})
