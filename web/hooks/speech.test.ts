import { describe, expect, it } from 'vitest'
import { jsonResponse, stubFetch } from '../test/stub-fetch'
import { demoSpeech, orgSpeech } from './speech'

/** A transcript longer than the API takes in one request (its text limit is 100,000 characters). */
const LONG = `${'Counsel: the witness may answer. '.repeat(4_000)}𝄞 end`

async function sentText(requests: Request[]): Promise<string> {
  const body = (await requests[0]?.json()) as { text: string }
  return body.text
}

describe('speech requests', () => {
  it("sends only the first 4000 characters of a long text for the organisation's speech", async () => {
    const { requests } = stubFetch({
      'POST /api/v1/orgs/org-1/speech': () => jsonResponse({ audioContent: 'bXAz' }),
    })
    expect(await orgSpeech('org-1')(LONG)).toBe('bXAz')
    expect(await sentText(requests)).toBe(LONG.slice(0, 4000))
  })

  it('sends only the first 4000 characters to the demo, never half a character', async () => {
    const { requests } = stubFetch({
      'POST /api/demo/speech': () => jsonResponse({ audioContent: 'bXAz' }),
    })
    const text = `${'a'.repeat(3999)}𝄞 and more`
    await demoSpeech(text)
    expect(await sentText(requests)).toBe(`${'a'.repeat(3999)}𝄞`)
  })

  it('sends a short text whole', async () => {
    const { requests } = stubFetch({
      'POST /api/demo/speech': () => jsonResponse({ audioContent: 'bXAz' }),
    })
    await demoSpeech('A short answer.')
    expect(await sentText(requests)).toBe('A short answer.')
  })
})
