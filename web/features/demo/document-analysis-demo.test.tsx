import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { DocumentAnalysisDemo } from './document-analysis-demo'

/** A contract of `words` numbered words ("w0 w1 w2 …"): every cut point can be named. */
const contract = (words: number) => Array.from({ length: words }, (_, i) => `w${i}`).join(' ')

const summary = { engine: 'local', model: 'test', kind: 'summarize', summary: 'A contract.' }

describe('DocumentAnalysisDemo', () => {
  it('says before sending that a paste over 20,000 characters will be cut and where, sends it cut, and says so over the result', async () => {
    const { requests } = stubFetch({
      'POST /api/demo/analyze': () => jsonResponse({ analysis: summary }),
    })
    renderWithRouter({
      element: (
        <DocumentAnalysisDemo
          renderAnalysis={(state) => <p>{state.status === 'ok' ? 'Result shown' : ''}</p>}
        />
      ),
    })
    const text = contract(4000) // 22,889 characters
    fireEvent.change(screen.getByLabelText('Document text'), { target: { value: text } })
    expect(screen.getByLabelText('Document text')).toHaveValue(text)
    const before = screen.getByRole('status')
    expect(before).toHaveTextContent(
      'Your text has 22,889 characters and the demo reads 20,000: it will be cut after “…w3509 w3510 w3511 w3512 w3513 w3514 w3515 w3516 w3517”, and the rest will not be read.',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Analyze' }))
    expect(await screen.findByText('Result shown')).toBeInTheDocument()
    const sent = (await requests[0]!.json()) as { documentText: string }
    expect(sent.documentText.length).toBeLessThanOrEqual(20_000)
    expect(text.startsWith(sent.documentText)).toBe(true)
    const lastWord = sent.documentText.split(' ').at(-1)!
    expect(text.split(' ')).toContain(lastWord) // cut between words, not inside one
    expect(screen.getByRole('note')).toHaveTextContent(
      `Analysed the first ${sent.documentText.length.toLocaleString('en-US')} of 22,889 characters: the text was cut after “…`,
    )
    expect(screen.getByRole('note')).toHaveTextContent(`${lastWord}”; the rest was not read.`)
  })

  it('says nothing of a cut for a paste within the limit', () => {
    renderWithRouter({ element: <DocumentAnalysisDemo renderAnalysis={() => null} /> })
    fireEvent.change(screen.getByLabelText('Document text'), { target: { value: contract(100) } })
    expect(screen.getByRole('status')).toHaveTextContent('')
  })

  it('refuses a blank paste beside the field, sending nothing', async () => {
    const { requests } = stubFetch({
      'POST /api/demo/analyze': () => jsonResponse({ analysis: summary }),
    })
    renderWithRouter({ element: <DocumentAnalysisDemo renderAnalysis={() => null} /> })
    const field = screen.getByLabelText('Document text')
    fireEvent.change(field, { target: { value: '   ' } })
    await userEvent.click(screen.getByRole('button', { name: 'Analyze' }))
    expect(await screen.findByText('Please paste a document to analyze')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription(/Please paste a document to analyze/)
    expect(requests).toEqual([])
  })
})
