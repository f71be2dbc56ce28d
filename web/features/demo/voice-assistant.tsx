import { useRef } from 'react'
import { MicIcon, SquareIcon } from 'lucide-react'
import { LevelMeter } from '../../components/level-meter'
import { ListenButton } from '../../components/listen-button'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { demoSpeech } from '../../hooks/speech'
import { formatElapsed } from '../../hooks/use-recorder'
import { useVoiceAssistant } from './use-voice-assistant'

const STATUS_TEXT = {
  idle: 'Ask a legal question aloud, up to 60 seconds.',
  recording: 'Listening… press Stop when you are done.',
  processing: 'Thinking…',
  speaking: 'Speaking…',
}

/**
 * The demo's voice legal assistant: speech in, an answer from Lexdesk's contract glossary with the
 * entries it cites (or that no entry covers the question), speech out.
 */
export function VoiceAssistant() {
  const audio = useRef<HTMLAudioElement>(null)
  const assistant = useVoiceAssistant(audio)
  const recording = assistant.status === 'recording'
  const busy = assistant.status === 'processing' || assistant.status === 'speaking'
  return (
    <Card>
      <CardHeader>
        <CardTitle>Voice legal assistant</CardTitle>
        <CardDescription>
          Ask what a contract term means (an NDA, an indemnity, a liability cap…): answers come from
          Lexdesk’s contract glossary, cited; general information, not legal advice. Nothing you say
          is stored.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex items-center gap-4">
          <Button
            type="button"
            size="lg"
            onClick={assistant.toggle}
            disabled={busy}
            variant={recording ? 'destructive' : 'default'}
            data-state={assistant.status}
          >
            {recording ? <SquareIcon aria-hidden="true" /> : <MicIcon aria-hidden="true" />}
            {recording ? 'Stop' : 'Start'}
          </Button>
          {recording && (
            <span className="font-mono tabular-nums">{formatElapsed(assistant.elapsed)}</span>
          )}
        </div>
        {recording && <LevelMeter level={assistant.level} />}
        <p role="status" className="text-sm text-muted-foreground">
          {STATUS_TEXT[assistant.status]}
        </p>
        {assistant.error && <p className="text-sm text-destructive">{assistant.error}</p>}
        {assistant.transcript !== null && (
          <div className="text-sm">
            <span className="font-medium">You asked: </span>
            <span data-testid="demo-transcript">{assistant.transcript}</span>
          </div>
        )}
        {assistant.answer && (
          <div className="flex flex-col gap-2 rounded-md border bg-muted/40 p-4 text-sm">
            <p data-testid="demo-answer" className="whitespace-pre-wrap">
              {assistant.answer.answer}
            </p>
            {assistant.answer.sources.length > 0 && (
              <p className="text-xs text-muted-foreground">
                Cited: {assistant.answer.sources.map((source) => source.title).join('; ')} (Lexdesk
                contract glossary)
              </p>
            )}
            <div>
              <ListenButton
                text={assistant.answer.answer}
                synthesize={demoSpeech}
                subject="answer"
              />
            </div>
          </div>
        )}
        {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the answer is shown as text */}
        <audio
          ref={audio}
          hidden
          data-testid="assistant-audio"
          onEnded={assistant.spoken}
          onError={assistant.playbackFailed}
        />
      </CardContent>
    </Card>
  )
}
