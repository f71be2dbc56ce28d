import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { JobProgress } from '../../components/job-progress'
import { LabelledSelect } from '../../components/labelled-select'
import { PageHeader } from '../../components/page-header'
import { PickList } from '../../components/pick-list'
import { Button } from '../../components/ui/button'
import { useJob } from '../../hooks/jobs'
import { useOrgScope } from '../../lib/org-scope'
import {
  comparableDocumentsQuery,
  comparisonListQuery,
  comparisonQuery,
  comparisonsKey,
  createComparison,
  type ComparisonSummary,
} from './api'
import { ComparisonChanges } from './comparison-changes'

/**
 * /dashboard/:orgSlug/comparisons: what changed between two versions of a contract (issue 46,
 * decision 0149). The organisation's comparisons, a form to compare two documents (`?base=`, set
 * by a document's "Compare with…", picks the earlier version), and the comparison the address
 * names (`?comparison=`): its job's progress while it runs, then its changes clause by clause
 * beside both texts, and its redlines.
 */
export function ComparisonsPage() {
  const scope = useOrgScope()
  const [params, setParams] = useSearchParams()
  const open = params.get('comparison')
  const base = params.get('base')
  const [building, setBuilding] = useState(base !== null)
  const select = (comparisonId: string) => {
    setBuilding(false)
    setParams((p) => {
      p.delete('base')
      p.set('comparison', comparisonId)
      return p
    })
  }
  return (
    <>
      <PageHeader
        title="Comparisons"
        description="What changed between two versions: clauses aligned (a moved clause is a move), words compared inside them, changes of form told apart, every change cited in both versions."
        actions={
          <Button type="button" onClick={() => setBuilding((b) => !b)} aria-expanded={building}>
            New comparison
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <ComparisonList key={scope.orgId} orgId={scope.orgId} open={open} onOpen={select} />
        <div className="min-w-0">
          {building ? (
            <ComparisonBuilder
              orgId={scope.orgId}
              appId={scope.appId}
              initialBase={base ?? ''}
              onCreated={select}
            />
          ) : open ? (
            <ComparisonView key={open} orgId={scope.orgId} comparisonId={open} />
          ) : (
            <p className="text-sm text-muted-foreground">
              Open a comparison, or compare two documents: pick the earlier version and the later
              one (their markup).
            </p>
          )}
        </div>
      </div>
    </>
  )
}

const STATE_TEXT: Record<ComparisonSummary['state'], string> = {
  queued: 'queued',
  running: 'comparing…',
  done: 'done',
  failed: 'failed',
}

function ComparisonList(props: { orgId: string; open: string | null; onOpen(id: string): void }) {
  const list = useQuery(comparisonListQuery(props.orgId))
  const documents = useQuery(comparableDocumentsQuery(props.orgId, null))
  const titles = new Map(documents.data?.items.map((d) => [d.id, d.title]))
  const title = (id: string) => titles.get(id) ?? 'A document'
  return (
    <PickList
      label="Comparisons"
      query={list}
      open={props.open}
      onOpen={props.onOpen}
      itemClassName="h-auto py-2 text-left whitespace-normal"
    >
      {(c) => (
        <span className="flex flex-col">
          <span>
            {title(c.revisedDocumentId)} vs {title(c.baseDocumentId)}
          </span>
          <span className="text-xs text-muted-foreground">
            {c.counts
              ? `${c.counts.substantive} substantive · ${c.counts.moves} moved · ${c.counts.formatOnly} of form`
              : STATE_TEXT[c.state]}
          </span>
        </span>
      )}
    </PickList>
  )
}

/** Two documents picked (the earlier, then the later version) and compared. */
function ComparisonBuilder(props: {
  orgId: string
  appId: string | null
  initialBase: string
  onCreated(id: string): void
}) {
  const queryClient = useQueryClient()
  const documents = useQuery(comparableDocumentsQuery(props.orgId, props.appId))
  const [base, setBase] = useState(props.initialBase)
  const [revised, setRevised] = useState('')
  const create = useMutation({
    mutationFn: () =>
      createComparison(props.orgId, { baseDocumentId: base, revisedDocumentId: revised }),
    onSuccess: async (comparison) => {
      await queryClient.invalidateQueries({ queryKey: comparisonsKey(props.orgId) })
      props.onCreated(comparison.id)
    },
    onError: (error) => toast.error(`The documents could not be compared: ${error.message}`),
  })
  const options = (documents.data?.items ?? []).map((d) => ({ value: d.id, label: d.title }))
  const ready = base !== '' && revised !== '' && base !== revised
  return (
    <form
      aria-label="New comparison"
      className="flex max-w-xl flex-col gap-4 rounded-md border p-4"
      onSubmit={(event) => {
        event.preventDefault()
        if (ready) create.mutate()
      }}
    >
      {documents.status === 'error' && (
        <p role="alert" className="text-sm text-destructive">
          The documents could not be loaded: {documents.error.message}
        </p>
      )}
      <LabelledSelect
        label="Earlier version (base)"
        value={base}
        onValueChange={setBase}
        options={options}
        placeholder="Pick a document"
        placeholderDisabled
      />
      <LabelledSelect
        label="Later version (their markup)"
        value={revised}
        onValueChange={setRevised}
        options={options.map((o) => ({ ...o, disabled: o.value === base }))}
        placeholder="Compare with…"
        placeholderDisabled
      />
      {base !== '' && base === revised && (
        <p className="text-sm text-muted-foreground">Pick two different documents.</p>
      )}
      <div>
        <Button type="submit" disabled={!ready || create.isPending}>
          {create.isPending ? 'Comparing…' : 'Compare'}
        </Button>
      </div>
    </form>
  )
}

/** One comparison: its job while it runs, why it failed, or its changes once done. */
function ComparisonView({ orgId, comparisonId }: { orgId: string; comparisonId: string }) {
  const queryClient = useQueryClient()
  const comparison = useQuery(comparisonQuery(orgId, comparisonId))
  const data = comparison.data
  const active = data?.state === 'queued' || data?.state === 'running'
  const job = useJob(orgId, active ? data?.job?.jobId : undefined, () => {
    void queryClient.invalidateQueries({ queryKey: comparisonsKey(orgId) })
  })
  if (comparison.status === 'pending')
    return <p className="text-sm text-muted-foreground">Loading the comparison…</p>
  if (comparison.status === 'error')
    return (
      <p role="alert" className="text-sm text-destructive">
        The comparison could not be loaded: {comparison.error.message}
      </p>
    )
  const found = comparison.data
  if (found.state === 'failed')
    return (
      <p role="alert" className="text-sm text-destructive">
        This comparison failed: {found.error ?? 'no reason was given.'}
      </p>
    )
  if (found.state !== 'done' || !found.result)
    return (
      <section aria-label="Comparing" className="max-w-xl">
        <JobProgress job={job} label="Comparison" />
      </section>
    )
  return <ComparisonChanges orgId={orgId} comparison={found} result={found.result} />
}
