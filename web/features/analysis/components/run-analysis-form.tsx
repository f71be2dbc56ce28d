import { Sparkles } from 'lucide-react'
import { useId } from 'react'
import { Controller } from 'react-hook-form'
import * as z from 'zod/mini'
import { Form, FormSubmit } from '../../../components/form/form'
import { useZodForm } from '../../../components/form/use-zod-form'
import { LabelledSelect } from '../../../components/labelled-select'
import { ANALYSIS_KINDS } from './analysis-kinds'
import type { AnalysisKind } from '../api/types'

const runAnalysisSchema = z.object({
  kind: z.enum(['full', 'summarize', 'clauses', 'risks'] satisfies AnalysisKind[]),
})

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
  const form = useZodForm(runAnalysisSchema, { kind: 'full' })
  const reasonId = useId()
  const reason = disabled ? disabledReason : null
  return (
    <Form
      form={form}
      onSubmit={({ kind }) => onRun(kind)}
      className="flex flex-wrap items-end gap-2"
    >
      <Controller
        control={form.control}
        name="kind"
        render={({ field }) => (
          <LabelledSelect
            label="Analysis type"
            labelClassName="font-medium leading-none"
            className="min-w-44 gap-1.5"
            value={field.value}
            onValueChange={field.onChange}
            onBlur={field.onBlur}
            options={ANALYSIS_KINDS}
          />
        )}
      />
      <FormSubmit
        pending={isRunning}
        disabled={disabled}
        aria-describedby={reason ? reasonId : undefined}
      >
        <Sparkles aria-hidden="true" />
        {isRunning ? 'Analyzing…' : 'Analyze'}
      </FormSubmit>
      {reason && (
        <p id={reasonId} className="basis-full text-sm text-muted-foreground">
          {reason}
        </p>
      )}
    </Form>
  )
}
