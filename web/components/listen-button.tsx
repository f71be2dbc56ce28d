import { useRef, useState } from 'react'
import { LoaderIcon, SquareIcon, Volume2Icon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from './ui/button'
import { mp3BlobUrl, type Synthesize } from '../hooks/speech'

interface ListenButtonProps {
  /** What to read aloud (the server cuts it to 4000 characters). */
  text: string
  /** Turns text into base64 MP3 (orgSpeech(orgId) or demoSpeech from web/hooks/speech). */
  synthesize: Synthesize
  /** Accessible name's subject, e.g. "summary": the button reads "Listen to the summary". */
  subject?: string
}

type State = 'listen' | 'loading' | 'playing' | 'paused'

/**
 * Reads an AI output aloud: Listen → Loading (speech is generated) → Stop while playing. Pressing
 * Stop pauses; pressing Listen again resumes; the button returns to Listen when playback ends.
 * Errors: the server's message, else 'Failed to generate speech'; 'Failed to play audio' when
 * the browser cannot play it.
 */
export function ListenButton({ text, synthesize, subject }: ListenButtonProps) {
  const audio = useRef<HTMLAudioElement>(null)
  const [state, setState] = useState<State>('listen')
  const [source, setSource] = useState<{ text: string; url: string } | null>(null)

  const play = async (url: string) => {
    const element = audio.current
    if (!element) return
    if (element.getAttribute('src') !== url) element.src = url
    try {
      await element.play()
      setState('playing')
    } catch {
      setState('listen')
      toast.error('Failed to play audio')
    }
  }

  const onClick = async () => {
    if (state === 'playing') {
      audio.current?.pause()
      setState('paused')
      return
    }
    if (state === 'loading') return
    // Speech already generated for this text is replayed (resumed after a pause).
    if (source?.text === text) return play(source.url)
    setState('loading')
    try {
      const url = mp3BlobUrl(await synthesize(text))
      if (source) URL.revokeObjectURL(source.url)
      setSource({ text, url })
      await play(url)
    } catch (error) {
      setState('listen')
      toast.error(
        error instanceof Error && error.message ? error.message : 'Failed to generate speech',
      )
    }
  }

  const label = state === 'loading' ? 'Loading' : state === 'playing' ? 'Stop' : 'Listen'
  const Icon = state === 'loading' ? LoaderIcon : state === 'playing' ? SquareIcon : Volume2Icon
  return (
    <>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => void onClick()}
        disabled={state === 'loading' || text.trim() === ''}
        aria-label={subject ? `${label}: ${subject}` : label}
        data-state={state}
      >
        <Icon aria-hidden="true" className={state === 'loading' ? 'animate-spin' : undefined} />
        {label}
      </Button>
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- synthetic speech of text shown on screen */}
      <audio
        ref={audio}
        hidden
        data-testid="listen-audio"
        onEnded={() => setState('listen')}
        onError={() => {
          if (state !== 'listen') toast.error('Failed to play audio')
          setState('listen')
        }}
      />
    </>
  )
}
