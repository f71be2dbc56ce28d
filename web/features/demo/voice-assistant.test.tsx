import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeMicrophone } from '../../test/fake-microphone'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { VoiceAssistant } from './voice-assistant'

const QUESTION = 'What is an indemnity?'
const ANSWER = 'An indemnity is a promise to cover the other side’s losses.'

/** The demo's endpoints: the question heard, its answer, and speech (or `speech`'s answer). */
function demoServer(speech: () => Response = () => jsonResponse({ audioContent: btoa('mp3') })) {
  stubFetch({
    'POST /api/demo/transcribe': () => jsonResponse({ transcript: QUESTION }),
    'POST /api/demo/answer': () => jsonResponse({ answer: ANSWER, answered: true, sources: [] }),
    'POST /api/demo/speech': speech,
  })
}

/** Asks a question aloud: Start, then Stop, and waits for the answer. */
async function ask() {
  render(<VoiceAssistant />)
  const user = userEvent.setup()
  await user.click(screen.getByRole('button', { name: 'Start' }))
  await user.click(await screen.findByRole('button', { name: 'Stop' }))
  expect(await screen.findByTestId('demo-answer')).toHaveTextContent(ANSWER)
}

describe('VoiceAssistant (demo)', () => {
  beforeEach(() => {
    fakeMicrophone()
    // jsdom has no blob: URLs; the real URL class stays for everything else.
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = () => 'blob:speech'
        static override revokeObjectURL = () => undefined
      },
    )
  })

  it("says 'Failed to play audio' when the browser cannot play the spoken answer, and is ready again", async () => {
    demoServer()
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(
      new DOMException('The element has no supported sources.', 'NotSupportedError'),
    )
    await ask()
    expect(await screen.findByText('Failed to play audio')).toBeInTheDocument()
    expect(screen.queryByText(/no supported sources/)).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled()
  })

  it("says 'Failed to play audio' when the answer's audio fails while playing", async () => {
    demoServer()
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    await ask()
    expect(await screen.findByText('Speaking…')).toBeInTheDocument()
    fireEvent.error(screen.getByTestId('assistant-audio'))
    expect(await screen.findByText('Failed to play audio')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled()
  })

  it("shows the server's reason when speech cannot be generated", async () => {
    demoServer(() =>
      problemResponse(503, 'Text to speech needs espeak-ng: apt-get install espeak-ng'),
    )
    await ask()
    expect(
      await screen.findByText('Text to speech needs espeak-ng: apt-get install espeak-ng'),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled()
  })

  it('names the glossary entries the answer cites', async () => {
    stubFetch({
      'POST /api/demo/transcribe': () => jsonResponse({ transcript: QUESTION }),
      'POST /api/demo/answer': () =>
        jsonResponse({
          answer: ANSWER,
          answered: true,
          sources: [{ id: 'glossary:indemnity', title: 'Indemnity' }],
        }),
      'POST /api/demo/speech': () => jsonResponse({ audioContent: btoa('mp3') }),
    })
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    await ask()
    expect(screen.getByText('Cited: Indemnity (Lexdesk contract glossary)')).toBeInTheDocument()
  })
})
