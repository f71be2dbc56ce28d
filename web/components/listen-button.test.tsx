import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { ListenButton } from './listen-button'

/** jsdom has no media playback: play resolves (or rejects), pause records the call. */
function stubMedia(play: () => Promise<void> = () => Promise.resolve()) {
  const pause = vi.fn()
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play)
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(pause)
  vi.stubGlobal('URL', { ...URL, createObjectURL: () => 'blob:speech', revokeObjectURL: vi.fn() })
  return { pause }
}

const speech = btoa('ID3 mp3 bytes')

describe('ListenButton', () => {
  it('goes Listen → Loading → Stop, pauses on Stop, resumes without new speech, and ends at Listen', async () => {
    const { pause } = stubMedia()
    let finish: (value: string) => void = () => {}
    const synthesize = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)))
    render(<ListenButton text="The summary." synthesize={synthesize} subject="summary" />)

    await userEvent.click(screen.getByRole('button', { name: 'Listen: summary' }))
    expect(screen.getByRole('button', { name: 'Loading: summary' })).toBeDisabled()
    finish(speech)
    await userEvent.click(await screen.findByRole('button', { name: 'Stop: summary' }))
    expect(pause).toHaveBeenCalledOnce()
    await userEvent.click(screen.getByRole('button', { name: 'Listen: summary' }))
    expect(await screen.findByRole('button', { name: 'Stop: summary' })).toBeInTheDocument()
    expect(synthesize).toHaveBeenCalledOnce()
    expect(synthesize).toHaveBeenCalledWith('The summary.')

    fireEvent.ended(screen.getByTestId('listen-audio'))
    expect(screen.getByRole('button', { name: 'Listen: summary' })).toBeInTheDocument()
  })

  it("shows the server's message, else 'Failed to generate speech', and 'Failed to play audio'", async () => {
    stubMedia(() => Promise.reject(new Error('NotAllowedError')))
    const { rerender } = render(
      <>
        <Toaster />
        <ListenButton
          text="One."
          synthesize={() => Promise.reject(new Error('Install espeak-ng.'))}
        />
      </>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }))
    expect(await screen.findByText('Install espeak-ng.')).toBeInTheDocument()

    rerender(
      <>
        <Toaster />
        <ListenButton text="Two." synthesize={() => Promise.reject(new Error(''))} />
      </>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }))
    expect(await screen.findByText('Failed to generate speech')).toBeInTheDocument()

    rerender(
      <>
        <Toaster />
        <ListenButton text="Three." synthesize={() => Promise.resolve(speech)} />
      </>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }))
    expect(await screen.findByText('Failed to play audio')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Listen' })).toBeEnabled()
  })
})
