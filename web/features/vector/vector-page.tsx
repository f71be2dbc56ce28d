import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Link } from 'react-router'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent } from '../../components/ui/card'
import { Input } from '../../components/ui/input'
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
 * The tester's form and its results: each result names its document (its title, a link opening
 * the reader on the passage, highlighted) above the score, content and metadata the spec shows.
 */
function VectorTester({ scope }: { scope: OrgUrlScope }) {
  const [text, setText] = useState('')
  const [embeddingJson, setEmbeddingJson] = useState('')
  const [topK, setTopK] = useState('8')
  const search = useMutation({
    mutationFn: () => runVectorSearch(scope, { text, embeddingJson, topK }),
  })
  const ids = { text: useId(), embedding: useId(), k: useId() }
  return (
    <div className="flex flex-col gap-6">
      <form
        // Top K is clamped to 1–50 (spec), not refused: no native range validation.
        noValidate
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault()
          search.mutate()
        }}
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.text}>Query text</Label>
          <Input id={ids.text} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.embedding}>Embedding JSON (optional)</Label>
          <Textarea
            id={ids.embedding}
            rows={3}
            placeholder="[0.01, -0.2, …]"
            value={embeddingJson}
            onChange={(e) => setEmbeddingJson(e.target.value)}
          />
        </div>
        <div className="flex items-end gap-3">
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.k}>Top K</Label>
            <Input
              id={ids.k}
              type="number"
              min={1}
              max={50}
              className="w-24"
              value={topK}
              onChange={(e) => setTopK(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={search.isPending}>
            {search.isPending ? 'Searching…' : 'Search'}
          </Button>
        </div>
      </form>
      {search.isError && (
        <p role="alert" className="text-sm text-destructive">
          {search.error.message}
        </p>
      )}
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
