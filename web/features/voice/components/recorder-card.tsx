import { MicIcon, SquareIcon } from 'lucide-react'
import { JobProgress } from '../../../components/job-progress'
import { LevelMeter } from '../../../components/level-meter'
import { Button } from '../../../components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card'
import { Progress } from '../../../components/ui/progress'
import { formatElapsed } from '../../../hooks/use-recorder'
import type { useVoiceMemo } from '../hooks/use-voice-memo'

const TONES = {
  info: 'text-muted-foreground',
  success: 'text-emerald-700',
  error: 'text-destructive',
}

/** The recorder: mic toggle (disabled while processing), level meter, elapsed time, upload and job progress, status text. */
export function RecorderCard({ memo }: { memo: ReturnType<typeof useVoiceMemo> }) {
  const recording = memo.status === 'recording'
  return (
    <Card role="region" aria-label="Recorder">
      <CardHeader>
        <CardTitle>Recorder</CardTitle>
        <CardDescription>
          {recording
            ? 'Recording… press the button again to stop.'
            : 'Press the microphone to start.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex items-center gap-4">
          <Button
            type="button"
            size="lg"
            variant={recording ? 'destructive' : 'default'}
            onClick={memo.toggle}
            disabled={memo.status === 'processing'}
            aria-label={recording ? 'Stop recording' : 'Start recording'}
            data-state={memo.status}
          >
            {recording ? <SquareIcon aria-hidden="true" /> : <MicIcon aria-hidden="true" />}
            {recording ? 'Stop' : 'Record'}
          </Button>
          <span className="font-mono text-lg tabular-nums" aria-label="Elapsed time">
            {formatElapsed(memo.elapsed)}
          </span>
        </div>
        {recording && <LevelMeter level={memo.level} />}
        {memo.uploadPercent !== null && (
          <div className="flex flex-col gap-1 text-sm">
            <span>Uploading… {memo.uploadPercent}%</span>
            <Progress value={memo.uploadPercent} aria-label="Upload progress" />
          </div>
        )}
        {memo.status === 'processing' && memo.job && (
          <JobProgress job={memo.job} label="Transcription" />
        )}
        {memo.message && (
          <p role="status" className={`text-sm ${TONES[memo.message.tone]}`}>
            {memo.message.text}
          </p>
        )}
      </CardContent>
    </Card>
  )
}
