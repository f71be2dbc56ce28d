import { useId, useState, type ReactNode } from 'react'
import { useWatch } from 'react-hook-form'
import * as z from 'zod/mini'
import { Form, FormSubmit } from '../../components/form/form'
import { FormTextarea } from '../../components/form/form-textarea'
import { useZodForm } from '../../components/form/use-zod-form'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card'
import { postDemo } from '../../hooks/speech'
import type { components } from '../../lib/api-schema'
import { cutDemoText, DEMO_MAX_TEXT_CHARS, type DemoTextCut } from './cut-demo-text'

type Analysis = components['schemas']['Analysis']
type Kind = 'summarize' | 'clauses' | 'risks'

/** The analysis panel's states, for the panel composed in by web/app. */
export type DemoAnalysisState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ok'; analysis: Analysis }

const KINDS: { value: Kind; label: string }[] = [
  { value: 'summarize', label: 'Summarize' },
  { value: 'clauses', label: 'Clauses' },
  { value: 'risks', label: 'Risks' },
]

const demoSchema = z.object({
  // Kept as pasted (the cut is said before sending): only a blank paste is refused.
  text: z
    .string()
    .check(z.refine((text) => text.trim() !== '', 'Please paste a document to analyze')),
  kind: z.enum(['summarize', 'clauses', 'risks'] satisfies Kind[]),
})

type DemoValues = z.input<typeof demoSchema>

const count = new Intl.NumberFormat('en-US')

/** Where a cut paste stops, said before sending ('will') and over the result ('was'). */
function cutNotice(cut: DemoTextCut, sent: boolean): string {
  const limit = count.format(DEMO_MAX_TEXT_CHARS)
  return sent
    ? `Analysed the first ${count.format(cut.kept.length)} of ${count.format(cut.total)} characters: the text was cut after “${cut.endsWith}”; the rest was not read.`
    : `Your text has ${count.format(cut.total)} characters and the demo reads ${limit}: it will be cut after “${cut.endsWith}”, and the rest will not be read.`
}

/**
 * Paste text, pick summarize, clauses or risks, see the analysis panel. A paste over the demo's
 * 20,000 characters is kept whole in the field, said to be cut (and where) before Analyze, sent
 * cut, and the result says where it stopped.
 */
export function DocumentAnalysisDemo({
  renderAnalysis,
}: {
  renderAnalysis: (state: DemoAnalysisState) => ReactNode
}) {
  const form = useZodForm(demoSchema, { text: '', kind: 'summarize' })
  const text = useWatch({ control: form.control, name: 'text' })
  const [state, setState] = useState<DemoAnalysisState>({ status: 'idle' })
  // The cut of the text last analysed, said over its result.
  const [sentCut, setSentCut] = useState<DemoTextCut | null>(null)
  const cut = cutDemoText(text)
  const cutNoticeId = useId()

  // The schema refused an empty paste; `text` is sent as pasted, or cut.
  const analyze = async ({ text, kind }: z.output<typeof demoSchema>) => {
    const cut = cutDemoText(text)
    setState({ status: 'loading' })
    setSentCut(cut)
    try {
      const { analysis } = await postDemo<{ analysis: Analysis['result'] }>('analyze', {
        documentText: cut ? cut.kept : text,
        analysisType: kind,
      })
      setState({
        status: 'ok',
        analysis: {
          id: 'demo',
          documentId: 'demo',
          kind,
          engine: analysis.engine,
          model: analysis.model,
          result: analysis,
          weActFor: null,
          ourParty: null,
          createdAt: new Date().toISOString(),
        },
      })
    } catch (e) {
      setState({
        status: 'error',
        message: e instanceof Error && e.message ? e.message : 'Failed to analyze document',
      })
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Analyze a document</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <Form
            form={form}
            onSubmit={(values) => void analyze(values)}
            aria-label="Analyze a document"
            className="flex flex-col gap-4"
          >
            <FormTextarea<DemoValues>
              name="text"
              label="Document text"
              className="gap-2"
              rows={10}
              placeholder="Paste a contract or clause (up to 20,000 characters)"
              aria-describedby={cutNoticeId}
            />
            <p id={cutNoticeId} role="status" className="-mt-2 text-sm font-medium">
              {cut ? cutNotice(cut, false) : ''}
            </p>
            <fieldset className="flex flex-wrap items-center gap-4 text-sm">
              <legend className="sr-only">Analysis type</legend>
              {KINDS.map((option) => (
                <label key={option.value} className="flex items-center gap-2">
                  <input type="radio" value={option.value} {...form.register('kind')} />
                  {option.label}
                </label>
              ))}
            </fieldset>
            <div>
              <FormSubmit pending={state.status === 'loading'}>Analyze</FormSubmit>
            </div>
          </Form>
        </CardContent>
      </Card>
      {state.status === 'ok' && sentCut && (
        <p role="note" className="text-sm font-medium">
          {cutNotice(sentCut, true)}
        </p>
      )}
      {renderAnalysis(state)}
    </div>
  )
}
