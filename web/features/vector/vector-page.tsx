import { useMutation } from '@tanstack/react-query'
import { useId } from 'react'
import { Link } from 'react-router'
import * as z from 'zod/mini'
import { Form, FormField, FormProblem, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { PageHeader } from '../../components/page-header'
import { Card, CardContent } from '../../components/ui/card'
import { Label } from '../../components/ui/label'
import { Textarea } from '../../components/ui/textarea'
import { orgPath } from '../../lib/org-path'
import { useOrgScope, type OrgUrlScope } from '../../lib/org-scope'
import { runVectorSearch } from './run-vector-search'

/** /dashboard/:orgSlug/vector: the Vector Store tester (product spec §2, §5) for the current organisation. */
export function VectorPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Vector Store"
        description="Test semantic search over the organization’s indexed text."
      />
      <VectorTester key={`${scope.orgId}:${scope.appId ?? ''}`} scope={scope} />
    </>
  )
}

/**
 * The tester's fields as typed: what they mean (Top K clamped, the JSON parsed, the text embedded)
 * and their refusals are the spec's, said by runVectorSearch when the search runs.
 */
const testerSchema = z.object({ text: z.string(), embeddingJson: z.string(), topK: z.string() })
type TesterValues = z.input<typeof testerSchema>

/**
 * The tester's form and its results: each result names its document (its title, a link opening
 * the reader on the passage, highlighted) above the score, content and metadata the spec shows.
 */
function VectorTester({ scope }: { scope: OrgUrlScope }) {
  const form = useZodForm(testerSchema, { text: '', embeddingJson: '', topK: '8' })
  const search = useMutation({
    mutationFn: (values: TesterValues) => runVectorSearch(scope, values),
  })
  const embeddingId = useId()
  return (
    <div className="flex flex-col gap-6">
      <Form
        form={form}
        className="flex flex-col gap-3"
        onSubmit={(values) => search.mutate(values)}
      >
        <FormField<TesterValues> name="text" label="Query text" />
        <div className="flex flex-col gap-1">
          <Label htmlFor={embeddingId}>Embedding JSON (optional)</Label>
          <Textarea
            id={embeddingId}
            rows={3}
            placeholder="[0.01, -0.2, …]"
            {...form.register('embeddingJson')}
          />
        </div>
        <div className="flex items-end gap-3">
          {/* Top K is clamped to 1–50 (spec), not refused: the form has no native range check. */}
          <FormField<TesterValues>
            name="topK"
            label="Top K"
            type="number"
            min={1}
            max={50}
            inputClassName="w-24"
          />
          <FormSubmit pending={search.isPending} pendingLabel="Searching…">
            Search
          </FormSubmit>
        </div>
      </Form>
      <FormProblem error={search.error} />
      {!search.data && !search.isError && (
        <p className="text-sm text-muted-foreground">No results yet.</p>
      )}
      {search.data && (
        <ul aria-label="Results" className="flex flex-col gap-2">
          {search.data.length === 0 && (
            <li className="text-sm text-muted-foreground">No passage matched.</li>
          )}
          {search.data.map((row) => (
            <li key={row.id}>
              <Card>
                <CardContent className="flex flex-col gap-2 p-4 text-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <p className="font-medium">{row.metadata.documentTitle}</p>
                    <Link
                      className="text-sm underline underline-offset-2"
                      aria-label={`Open the passage in ${row.metadata.documentTitle}`}
                      to={orgPath(scope, 'documents', {
                        document: row.metadata.documentId,
                        start: String(row.metadata.start),
                        end: String(row.metadata.end),
                      })}
                    >
                      Open passage
                    </Link>
                  </div>
                  <div className="flex flex-wrap justify-between gap-2 font-mono text-xs">
                    <span>id {row.id}</span>
                    <span>score {row.score.toFixed(4)}</span>
                  </div>
                  <p className="whitespace-pre-wrap">{row.content}</p>
                  <pre className="overflow-x-auto rounded bg-muted p-2 text-xs">
                    {JSON.stringify(row.metadata, null, 2)}
                  </pre>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
