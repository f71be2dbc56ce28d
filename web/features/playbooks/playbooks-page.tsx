import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { LabelledSelect } from '../../components/labelled-select'
import { PageHeader } from '../../components/page-header'
import { PickList } from '../../components/pick-list'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { useOrgScope } from '../../lib/org-scope'
import {
  approveVersion,
  checkDocument,
  checkableDocumentsQuery,
  copyStarter,
  exportHref,
  importPlaybook,
  playbookListQuery,
  playbookQuery,
  playbooksKey,
  saveVersion,
  starterListQuery,
  versionQuery,
  type PlaybookCheck,
  type StarterId,
} from './api'
import { CheckResults } from './check-results'

/**
 * /dashboard/:orgSlug/playbooks: the firm's standard positions per clause type (issue 46,
 * decision 0153). The organisation's playbooks and the shipped starters to copy; the playbook the
 * address names (`?playbook=`): its versions (who approved which), a version's positions, a
 * draft's positions edited as JSON and approved, export and import as JSON; and a document
 * checked against it (`?check=` names the document, as a document's "Check against playbook…"
 * link sets it), its results per position with each citation opening its passage.
 */
export function PlaybooksPage() {
  const scope = useOrgScope()
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const open = params.get('playbook')
  const checking = params.get('check')
  const select = (playbookId: string) =>
    setParams((p) => {
      p.set('playbook', playbookId)
      return p
    })
  const list = useQuery(playbookListQuery(scope.orgId))
  const added = async (playbook: { id: string }) => {
    await queryClient.invalidateQueries({ queryKey: playbooksKey(scope.orgId) })
    select(playbook.id)
  }
  const imported = useMutation({
    mutationFn: async (file: File) => importPlaybook(scope.orgId, JSON.parse(await file.text())),
    onSuccess: added,
    onError: (error) => toast.error(`The playbook could not be imported: ${error.message}`),
  })
  return (
    <>
      <PageHeader
        title="Playbooks"
        description="The firm's positions per clause type: preferred, ranked fallbacks, unacceptable. Check a contract against a playbook to see, position by position, where it departs and what to propose."
        actions={
          <label className="inline-flex cursor-pointer items-center rounded-md border px-3 py-2 text-sm font-medium focus-within:ring-2 focus-within:ring-ring">
            Import JSON…
            <input
              type="file"
              accept="application/json,.json"
              className="sr-only"
              onChange={(event) => {
                const file = event.target.files?.[0]
                if (file) imported.mutate(file)
                event.target.value = ''
              }}
            />
          </label>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <div className="flex flex-col gap-4">
          <PickList
            label="Playbooks"
            query={list}
            open={open}
            onOpen={select}
            itemClassName="h-auto py-2 text-left whitespace-normal"
          >
            {(p) => (
              <span className="flex flex-col">
                <span>{p.name}</span>
                <span className="text-xs text-muted-foreground">
                  {p.currentVersion ? `version ${p.currentVersion} approved` : 'draft only'}
                </span>
              </span>
            )}
          </PickList>
          <Starters orgId={scope.orgId} onCopied={added} />
        </div>
        <div className="min-w-0">
          {open ? (
            <PlaybookView
              key={open}
              orgId={scope.orgId}
              appId={scope.appId}
              playbookId={open}
              initialDocument={checking ?? ''}
            />
          ) : (
            <p className="text-sm text-muted-foreground">
              Open a playbook, copy a starter, or import one (JSON, as exported)
              {checking ? ' to check the document you chose against it' : ''}.
            </p>
          )}
        </div>
      </div>
    </>
  )
}

function Starters(props: { orgId: string; onCopied(playbook: { id: string }): Promise<void> }) {
  const starters = useQuery(starterListQuery(props.orgId))
  const copy = useMutation({
    mutationFn: (starter: StarterId) => copyStarter(props.orgId, starter),
    onSuccess: props.onCopied,
    onError: (error) => toast.error(`The starter could not be copied: ${error.message}`),
  })
  if (!starters.data) return null
  return (
    <section aria-label="Starter playbooks" className="flex flex-col gap-2">
      <h2 className="text-sm font-medium">Starter playbooks</h2>
      {starters.data.items.map((s) => (
        <Button
          key={s.id}
          type="button"
          variant="outline"
          className="h-auto justify-start py-2 text-left whitespace-normal"
          disabled={copy.isPending}
          onClick={() => copy.mutate(s.id)}
        >
          Copy “{s.name}” ({s.positionCount} positions)
        </Button>
      ))}
    </section>
  )
}

function PlaybookView(props: {
  orgId: string
  appId: string | null
  playbookId: string
  initialDocument: string
}) {
  const { orgId, playbookId } = props
  const playbook = useQuery(playbookQuery(orgId, playbookId))
  const [chosen, setChosen] = useState<number | null>(null)
  if (playbook.status === 'pending')
    return <p className="text-sm text-muted-foreground">Loading the playbook…</p>
  if (playbook.status === 'error')
    return (
      <p role="alert" className="text-sm text-destructive">
        The playbook could not be loaded: {playbook.error.message}
      </p>
    )
  const found = playbook.data
  const version = chosen ?? found.currentVersion ?? found.versions[0]?.number ?? 1
  return (
    <div className="flex flex-col gap-6">
      <section aria-label="Playbook" className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold">{found.name}</h2>
        {found.description && <p className="text-sm text-muted-foreground">{found.description}</p>}
        <div className="flex flex-wrap items-end gap-3">
          <LabelledSelect
            label="Version"
            value={String(version)}
            onValueChange={(v) => setChosen(Number(v))}
            options={found.versions.map((v) => ({
              value: String(v.number),
              label: `${v.number}: ${v.status === 'approved' ? `approved ${v.approvedAt?.slice(0, 10) ?? ''}` : 'draft'}${v.number === found.currentVersion ? ' (current)' : ''}`,
            }))}
          />
          <a
            className="text-sm underline-offset-4 hover:underline"
            href={exportHref(orgId, playbookId, version)}
            download={`${found.name}.playbook.json`}
          >
            Export JSON
          </a>
        </div>
      </section>
      <VersionPanel key={version} orgId={orgId} playbookId={playbookId} version={version} />
      <CheckPanel
        orgId={orgId}
        appId={props.appId}
        playbookId={playbookId}
        version={version}
        initialDocument={props.initialDocument}
      />
    </div>
  )
}

const SEVERITY_TEXT = { low: 'low', medium: 'medium', high: 'high' } as const

/** A version's positions; a draft's edited as JSON and approved. */
function VersionPanel(props: { orgId: string; playbookId: string; version: number }) {
  const { orgId, playbookId, version } = props
  const queryClient = useQueryClient()
  const query = useQuery(versionQuery(orgId, playbookId, version))
  const [draft, setDraft] = useState<string | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: playbooksKey(orgId) })
  const save = useMutation({
    mutationFn: (text: string) => saveVersion(orgId, playbookId, version, JSON.parse(text)),
    onSuccess: async () => {
      setDraft(null)
      await refresh()
      toast.success('Draft saved')
    },
    onError: (error) => toast.error(`The positions could not be saved: ${error.message}`),
  })
  const approve = useMutation({
    mutationFn: () => approveVersion(orgId, playbookId, version),
    onSuccess: async () => {
      await refresh()
      toast.success(`Version ${version} approved`)
    },
    onError: (error) => toast.error(`The version could not be approved: ${error.message}`),
  })
  if (!query.data) return <p className="text-sm text-muted-foreground">Loading the positions…</p>
  const found = query.data
  return (
    <section aria-label="Positions" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-base font-medium">
          Positions of version {found.number}{' '}
          <Badge variant={found.status === 'approved' ? 'secondary' : 'outline'}>
            {found.status}
          </Badge>
        </h3>
        {found.status === 'draft' && (
          <>
            <Button
              type="button"
              variant="outline"
              onClick={() => setDraft(JSON.stringify(found.positions, null, 2))}
            >
              Edit positions
            </Button>
            <Button type="button" disabled={approve.isPending} onClick={() => approve.mutate()}>
              Approve version {found.number}
            </Button>
          </>
        )}
      </div>
      {draft !== null && (
        <form
          aria-label="Edit positions"
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            save.mutate(draft)
          }}
        >
          <label htmlFor="positions-json" className="text-sm">
            Positions (JSON, as the published schema describes them)
          </label>
          <textarea
            id="positions-json"
            className="min-h-80 rounded-md border bg-background p-2 font-mono text-xs"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending}>
              Save draft
            </Button>
            <Button type="button" variant="ghost" onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {found.positions.length === 0 ? (
        <p className="text-sm text-muted-foreground">No positions yet.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {found.positions.map((p) => (
            <li key={p.id} className="rounded-md border p-3 text-sm">
              <p className="font-medium">
                {p.title}{' '}
                <span className="text-xs text-muted-foreground">
                  {p.clauseType} · {SEVERITY_TEXT[p.severity]} severity · {p.fallbacks?.length ?? 0}{' '}
                  fallback(s)
                </span>
              </p>
              {p.preferred.language && (
                <p className="mt-1 font-serif">Preferred: {p.preferred.language}</p>
              )}
              {p.guidance && <p className="mt-1 text-muted-foreground">{p.guidance}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** A document picked and checked against the playbook; its results per position. */
function CheckPanel(props: {
  orgId: string
  appId: string | null
  playbookId: string
  version: number
  initialDocument: string
}) {
  const documents = useQuery(checkableDocumentsQuery(props.orgId, props.appId))
  const [documentId, setDocumentId] = useState(props.initialDocument)
  const [check, setCheck] = useState<PlaybookCheck | null>(null)
  const run = useMutation({
    mutationFn: () =>
      checkDocument(props.orgId, props.playbookId, { documentId, version: props.version }),
    onSuccess: setCheck,
    onError: (error) => toast.error(`The document could not be checked: ${error.message}`),
  })
  const options = (documents.data?.items ?? []).map((d) => ({ value: d.id, label: d.title }))
  return (
    <section aria-label="Check against playbook" className="flex flex-col gap-3">
      <h3 className="text-base font-medium">Check a document against version {props.version}</h3>
      <form
        aria-label="Check a document"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault()
          if (documentId) run.mutate()
        }}
      >
        <LabelledSelect
          label="Document"
          value={documentId}
          onValueChange={setDocumentId}
          options={options}
          placeholder="Pick a document"
          placeholderDisabled
        />
        <Button type="submit" disabled={!documentId || run.isPending}>
          {run.isPending ? 'Checking…' : 'Check'}
        </Button>
      </form>
      <p className="text-xs text-muted-foreground">
        The document needs a full analysis first; its clauses, deal sheet and key terms are what the
        positions are judged by.
      </p>
      {check && <CheckResults orgId={props.orgId} check={check} />}
    </section>
  )
}
