import { Sparkles } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../components/ui/button'
import { Label } from '../../components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select'
import { ANALYSIS_KINDS } from './analysis-kinds'
import type { AnalysisKind } from './types'

interface RunAnalysisFormProps {
  onRun: (kind: AnalysisKind) => void
  isRunning: boolean
  /** Set when the document has no text to analyse. */
  disabled?: boolean
  /** Why it is disabled, shown under the button and named as its description. */
  disabledReason?: string | null
}

/** Choose an analysis kind (default Full analysis) and run it. */
export function RunAnalysisForm({
  onRun,
  isRunning,
  disabled = false,
  disabledReason = null,
}: RunAnalysisFormProps) {
  const [kind, setKind] = useState<AnalysisKind>('full')
  const kindId = useId()
  const reasonId = useId()
  const reason = disabled ? disabledReason : null
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault()
        onRun(kind)
      }}
    >
      <div className="flex min-w-44 flex-col gap-1.5">
        <Label htmlFor={kindId}>Analysis type</Label>
        <Select value={kind} onValueChange={(value) => setKind(value as AnalysisKind)}>
          <SelectTrigger id={kindId}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {ANALYSIS_KINDS.map((k) => (
              <SelectItem key={k.value} value={k.value}>
                {k.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Button
        type="submit"
        disabled={disabled || isRunning}
        aria-describedby={reason ? reasonId : undefined}
      >
        <Sparkles aria-hidden="true" />
        {isRunning ? 'Analyzing…' : 'Analyze'}
      </Button>
      {reason && (
        <p id={reasonId} className="basis-full text-sm text-muted-foreground">
          {reason}
        </p>
      )}
    </form>
  )
}
