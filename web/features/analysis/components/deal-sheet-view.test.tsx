import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { dealSheetMarkdown } from './deal-sheet-text'
import { DealSheetView } from './deal-sheet-view'
import { SummarySection } from './summary-section'
import type { DealSheet } from '../api/types'

const SHEET: DealSheet = {
  lines: [
    {
      key: 'term',
      label: 'Term and renewal',
      value: 'initial term 3 years',
      citations: [
        { start: 10, end: 60, text: 'The term of this Agreement shall be three (3) years.' },
      ],
    },
    { key: 'money', label: 'Money', value: null, citations: [] },
  ],
  attention: [{ text: 'No cap on liability or exclusion of damages was found', citations: [] }],
}

describe('DealSheetView', () => {
  it('shows each line with its value or Not found, and points at a citation when chosen', async () => {
    const user = userEvent.setup()
    const onSelectSpan = vi.fn()
    render(<DealSheetView sheet={SHEET} highlight={null} onSelectSpan={onSelectSpan} />)
    const list = screen.getByLabelText('Deal sheet')
    expect(within(list).getByText('initial term 3 years')).toBeInTheDocument()
    expect(within(list).getByText('Not found')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Term and renewal, source 1' }))
    expect(onSelectSpan).toHaveBeenCalledWith({ start: 10, end: 60 })
    expect(
      within(screen.getByRole('list', { name: 'Points for a lawyer’s attention' })).getByText(
        /No cap on liability/,
      ),
    ).toBeInTheDocument()
  })

  it('is what the summary section shows when the analysis has a deal sheet', () => {
    render(
      <SummarySection
        summary={{
          text: 'Term and renewal: initial term 3 years',
          sentences: [],
          dealSheet: SHEET,
        }}
        highlight={null}
        onSelectSpan={vi.fn()}
      />,
    )
    expect(screen.getByRole('heading', { name: 'Deal sheet' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Summary' })).not.toBeInTheDocument()
  })
})

describe('dealSheetMarkdown', () => {
  it('exports every line, Not found included, with its quotes and the attention points', () => {
    expect(dealSheetMarkdown('Deal sheet', SHEET)).toBe(
      [
        '## Deal sheet',
        '',
        '- **Term and renewal:** initial term 3 years',
        '  > The term of this Agreement shall be three (3) years.',
        '- **Money:** Not found',
        '',
        '### Points for a lawyer’s attention',
        '',
        '- No cap on liability or exclusion of damages was found',
      ].join('\n'),
    )
  })
})
