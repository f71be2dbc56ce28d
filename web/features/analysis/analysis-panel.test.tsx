import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { AnalysisPanel } from './analysis-panel'
import { makeAnalysis } from '../../test/make-analysis'
import type { AnalysisPanelState } from './api/types'

function renderPanel(state: AnalysisPanelState, onSelectSpan = vi.fn()) {
  render(<AnalysisPanel state={state} highlight={null} onSelectSpan={onSelectSpan} />)
  return { onSelectSpan }
}

describe('AnalysisPanel', () => {
  it('is hidden while idle', () => {
    renderPanel({ status: 'idle' })
    expect(screen.queryByRole('region', { name: 'Analysis result' })).not.toBeInTheDocument()
  })

  it('shows Working and no result view while loading', () => {
    renderPanel({ status: 'loading' })
    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Working')
    expect(within(panel).queryByRole('tab')).not.toBeInTheDocument()
  })

  it('shows Error with the failure message', () => {
    renderPanel({ status: 'error', message: 'The analyzer timed out.' })
    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Error')
    expect(panel).toHaveTextContent('The analyzer timed out.')
  })

  it('shows Ready with Pretty first and selected by default', () => {
    renderPanel({ status: 'ok', analysis: makeAnalysis() })
    const panel = screen.getByRole('region', { name: 'Analysis result' })
    expect(within(panel).getByRole('status')).toHaveTextContent('Ready')
    const tabs = within(panel).getAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['Pretty', 'Raw'])
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true')
    expect(within(panel).getByRole('heading', { name: 'Summary' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Raw analysis JSON')).not.toBeInTheDocument()
  })

  it('toggles between the readable view and the raw JSON', async () => {
    const user = userEvent.setup()
    const analysis = makeAnalysis()
    renderPanel({ status: 'ok', analysis })

    await user.click(screen.getByRole('tab', { name: 'Raw' }))
    const raw = screen.getByLabelText('Raw analysis JSON')
    expect(JSON.parse(raw.textContent ?? '')).toEqual(analysis.result)
    expect(screen.queryByRole('heading', { name: 'Summary' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('tab', { name: 'Pretty' }))
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Raw analysis JSON')).not.toBeInTheDocument()
  })

  it('groups risks by severity, high before medium before low', () => {
    renderPanel({ status: 'ok', analysis: makeAnalysis() })
    const groups = ['High severity', 'Medium severity', 'Low severity'].map((name) =>
      screen.getByRole('region', { name }),
    )
    expect(
      within(groups[0]!).getByRole('button', { name: /Uncapped liability/ }),
    ).toBeInTheDocument()
    expect(
      within(groups[1]!).getByRole('button', { name: /Automatic renewal/ }),
    ).toBeInTheDocument()
    expect(
      within(groups[2]!).getByRole('button', { name: /Short notice period/ }),
    ).toBeInTheDocument()
    // Document order of the groups follows severity, not the order the analyzer listed them in.
    expect(groups[0]!.compareDocumentPosition(groups[1]!)).toBe(Node.DOCUMENT_POSITION_FOLLOWING)
    expect(groups[1]!.compareDocumentPosition(groups[2]!)).toBe(Node.DOCUMENT_POSITION_FOLLOWING)
  })

  it('groups clauses by category with their confidence', () => {
    renderPanel({ status: 'ok', analysis: makeAnalysis() })
    const renewal = screen.getByRole('region', { name: 'Renewal Term' })
    const buttons = within(renewal).getAllByRole('button')
    expect(buttons).toHaveLength(2)
    expect(buttons[0]).toHaveAccessibleName(/renews automatically.*\(81% confidence\)/)
    const law = screen.getByRole('region', { name: 'Governing Law' })
    expect(within(law).getByRole('button')).toHaveAccessibleName(/New York.*\(97% confidence\)/)
  })

  it('reports the span of a chosen key term, party or risk', async () => {
    const user = userEvent.setup()
    const analysis = makeAnalysis()
    const { onSelectSpan } = renderPanel({ status: 'ok', analysis })
    const { governingLaw, parties } = analysis.result.keyTerms

    await user.click(screen.getByRole('button', { name: 'Governing law: New York' }))
    expect(onSelectSpan).toHaveBeenLastCalledWith({
      start: governingLaw!.start,
      end: governingLaw!.end,
    })

    await user.click(screen.getByRole('button', { name: 'Party: Beta LLC, Recipient' }))
    expect(onSelectSpan).toHaveBeenLastCalledWith({
      start: parties[1]!.start,
      end: parties[1]!.end,
    })
  })

  it('shows only the sections a summary asked for', () => {
    const analysis = makeAnalysis({ kind: 'summarize' })
    analysis.result.clauses = []
    analysis.result.risks = []
    renderPanel({ status: 'ok', analysis })
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Key terms' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Clauses' })).not.toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Risks' })).not.toBeInTheDocument()
  })

  it('shows the summary header and the parties with their roles', () => {
    renderPanel({ status: 'ok', analysis: makeAnalysis() })
    const facts = screen.getByLabelText('Key facts')
    expect(
      within(facts).getByRole('button', {
        name: 'Summary fact Type: Mutual Non-Disclosure Agreement',
      }),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Party: Beta LLC, Recipient' })).toHaveTextContent(
      'Beta LLC (Recipient)',
    )
  })

  it('says whose each risk is and why, as the server oriented it', () => {
    const analysis = makeAnalysis()
    renderPanel({ status: 'ok', analysis })
    expect(
      within(screen.getByRole('region', { name: 'High severity' })).getByRole('button', {
        name: /Uncapped liability.*Risk for Beta LLC: The cited clause binds Beta LLC\./,
      }),
    ).toBeInTheDocument()
  })

  it('offers the parties and the roles to act for, and saves the one chosen', async () => {
    const user = userEvent.setup()
    const onChooseWeActFor = vi.fn()
    render(
      <AnalysisPanel
        state={{ status: 'ok', analysis: makeAnalysis() }}
        highlight={null}
        onSelectSpan={vi.fn()}
        onChooseWeActFor={onChooseWeActFor}
      />,
    )
    const choice = screen.getByRole('group', { name: 'We act for' })
    expect(within(choice).getByRole('radio', { name: 'Not set' })).toBeChecked()
    await user.click(within(choice).getByRole('radio', { name: 'Acme Corp (Discloser)' }))
    expect(onChooseWeActFor).toHaveBeenLastCalledWith({ kind: 'party', party: 'Acme Corp' })
    await user.selectOptions(
      within(choice).getByRole('combobox', { name: 'We act for the role' }),
      'licensee',
    )
    expect(onChooseWeActFor).toHaveBeenLastCalledWith({ kind: 'role', role: 'licensee' })
  })

  it('shows the stored role, the party it names, and the risks oriented to it', () => {
    const analysis = makeAnalysis()
    analysis.weActFor = { kind: 'role', role: 'customer' }
    analysis.ourParty = 'Acme Corp'
    analysis.result.risks = analysis.result.risks.map((risk) =>
      risk.code === 'uncapped-liability'
        ? {
            ...risk,
            severity: 'low',
            orientation: 'binds-them',
            whose: {
              label: 'Their risk',
              reason: 'The cited clause binds Beta LLC, not Acme Corp.',
            },
          }
        : risk,
    )
    render(
      <AnalysisPanel
        state={{ status: 'ok', analysis }}
        highlight={null}
        onSelectSpan={vi.fn()}
        onChooseWeActFor={vi.fn()}
      />,
    )
    const choice = screen.getByRole('group', { name: 'We act for' })
    expect(within(choice).getByRole('combobox', { name: 'We act for the role' })).toHaveValue(
      'customer',
    )
    expect(within(choice).getByRole('radio', { name: 'Not set' })).not.toBeChecked()
    expect(choice).toHaveTextContent('The customer: Acme Corp.')
    expect(screen.queryByRole('region', { name: 'High severity' })).not.toBeInTheDocument()
    expect(
      within(screen.getByRole('region', { name: 'Low severity' })).getByRole('button', {
        name: /Uncapped liability.*Their risk: The cited clause binds Beta LLC, not Acme Corp/,
      }),
    ).toBeInTheDocument()
  })
})
