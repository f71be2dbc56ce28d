import { useId, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import {
  clearRetentionPolicy,
  retentionPoliciesQuery,
  retentionReportUrl,
  runRetentionNow,
  setRetentionPolicy,
  type RetentionKind,
  type RetentionPolicy,
  type RetentionPolicyInput,
} from './retention-api'

/** Each kind as a person reads it, in the order the panel lists them. */
const KINDS: { kind: RetentionKind; label: string; perApp: boolean }[] = [
  { kind: 'documents', label: 'Documents', perApp: true },
  { kind: 'recordings', label: 'Recordings', perApp: true },
  { kind: 'conversations', label: 'Conversations', perApp: true },
  { kind: 'storage_objects', label: 'Stored files', perApp: false },
  { kind: 'audit_entries', label: 'Audit entries', perApp: false },
]

/** The server's bounds of "keep N days" (a day to 100 years). */
const DAYS_MIN = 1
const DAYS_MAX = 36_500

/** What a policy says, in words. */
function describe(policy: RetentionPolicy | undefined, fallback: string): string {
  if (!policy) return fallback
  if (policy.keepDays === null) return 'Kept forever'
  return `Deleted ${policy.keepDays} ${policy.keepDays === 1 ? 'day' : 'days'} after the last change`
}

/**
 * One kind's policy for the organisation or one app: what it says, days to set, "Keep forever"
 * and "Clear". `onSet` and `onClear` run the changes; `busy` disables them while one runs.
 */
function PolicyRow({
  label,
  scopeLabel,
  policy,
  fallback,
  busy,
  onSet,
  onClear,
}: {
  label: string
  scopeLabel: string
  policy: RetentionPolicy | undefined
  fallback: string
  busy: boolean
  onSet: (keepDays: number | null) => void
  onClear: (policy: RetentionPolicy) => void
}) {
  const [days, setDays] = useState('')
  const parsed = Number(days)
  const valid = days !== '' && Number.isInteger(parsed) && parsed >= DAYS_MIN && parsed <= DAYS_MAX
  return (
    <li className="flex flex-wrap items-center gap-2 py-2">
      <span className="min-w-32 font-medium">{label}</span>
      <span className="min-w-64 flex-1 text-sm text-muted-foreground">
        {describe(policy, fallback)}
      </span>
      <Input
        type="number"
        inputMode="numeric"
        min={DAYS_MIN}
        max={DAYS_MAX}
        className="w-28"
        placeholder="Days"
        aria-label={`Days to keep ${label.toLowerCase()} (${scopeLabel})`}
        value={days}
        onChange={(event) => setDays(event.target.value)}
      />
      <Button
        type="button"
        size="sm"
        disabled={busy || !valid}
        aria-label={`Set days to keep ${label.toLowerCase()} (${scopeLabel})`}
        onClick={() => {
          onSet(parsed)
          setDays('')
        }}
      >
        Set days
      </Button>
      <Button
        type="button"
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={`Keep ${label.toLowerCase()} forever (${scopeLabel})`}
        onClick={() => onSet(null)}
      >
        Forever
      </Button>
      {policy ? (
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={busy}
          aria-label={`Clear the ${label.toLowerCase()} policy (${scopeLabel})`}
          onClick={() => onClear(policy)}
        >
          Clear
        </Button>
      ) : null}
    </li>
  )
}

/**
 * The retention part of the Security screen (issue 45, decision 0148): the organisation's policy
 * per kind of data and, with an app chosen, that app's (documents, recordings, conversations; an
 * app's policy beats the organisation's), each set to days or forever, or cleared; "Run now"; and
 * the deletion report of a period as CSV. Owners and admins only; others are told so.
 */
export function RetentionPanel() {
  const scope = useOrgScope()
  const manages = managesOrganisation(useOrgRole())
  const policies = useQuery({ ...retentionPoliciesQuery(scope.orgId), enabled: manages })
  const queryClient = useQueryClient()
  const ids = useId()
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: retentionPoliciesQuery(scope.orgId).queryKey })
  const set = useMutation({
    mutationFn: (input: RetentionPolicyInput) => setRetentionPolicy(scope.orgId, input),
    onSuccess: async () => {
      toast.success('Retention policy saved')
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const clear = useMutation({
    mutationFn: (policyId: string) => clearRetentionPolicy(scope.orgId, policyId),
    onSuccess: async () => {
      toast.success('Retention policy cleared')
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const run = useMutation({
    mutationFn: () => runRetentionNow(scope.orgId),
    onSuccess: () => toast.success('Retention run started: follow it on the Jobs page'),
    onError: (error) => toast.error(error.message),
  })
  const forbidden =
    !manages || (policies.error instanceof ApiError && policies.error.code === 'forbidden')
  const items = policies.data?.items ?? []
  const find = (kind: RetentionKind, appId: string | null) =>
    items.find((p) => p.kind === kind && p.appId === appId)
  const busy = set.isPending || clear.isPending
  const onClear = (policy: RetentionPolicy) => {
    if (window.confirm('Clear this retention policy?')) clear.mutate(policy.id)
  }

  return (
    <section aria-labelledby="retention-title" className="space-y-3">
      <h2 id="retention-title" className="font-serif text-lg font-semibold">
        Retention
      </h2>
      <p className="text-sm text-muted-foreground">
        How long data is kept after its last change. A daily run deletes what is due, with its
        files, never what a legal hold keeps, and lists each deletion in the report. Data without a
        policy is kept.
      </p>
      {forbidden ? (
        <p role="alert" className="text-sm text-destructive">
          Only owners and admins manage retention.
        </p>
      ) : policies.status === 'pending' ? (
        <p className="text-sm">Loading retention policies…</p>
      ) : policies.status === 'error' ? (
        <p role="alert" className="text-sm text-destructive">
          {policies.error.message}
        </p>
      ) : (
        <>
          <h3 className="text-sm font-semibold">Organization</h3>
          <ul className="divide-y">
            {KINDS.map(({ kind, label }) => (
              <PolicyRow
                key={kind}
                label={label}
                scopeLabel="organization"
                policy={find(kind, null)}
                fallback="No policy: kept"
                busy={busy}
                onSet={(keepDays) => set.mutate({ kind, keepDays })}
                onClear={onClear}
              />
            ))}
          </ul>
          {scope.appId ? (
            <>
              <h3 className="text-sm font-semibold">App {scope.appSlug ?? ''}</h3>
              <ul className="divide-y">
                {KINDS.filter((k) => k.perApp).map(({ kind, label }) => (
                  <PolicyRow
                    key={kind}
                    label={label}
                    scopeLabel={`app ${scope.appSlug ?? ''}`}
                    policy={find(kind, scope.appId)}
                    fallback="No policy of its own: the organization's applies"
                    busy={busy}
                    onSet={(keepDays) => set.mutate({ kind, appId: scope.appId, keepDays })}
                    onClear={onClear}
                  />
                ))}
              </ul>
            </>
          ) : (
            <p className="text-sm">Choose an app to give it policies of its own.</p>
          )}
          <div className="flex flex-wrap items-end gap-2">
            <Button type="button" disabled={run.isPending} onClick={() => run.mutate()}>
              Run now
            </Button>
            <div className="grid gap-1 text-sm">
              <Label htmlFor={`${ids}-from`}>From</Label>
              <Input
                id={`${ids}-from`}
                type="date"
                value={from}
                onChange={(event) => setFrom(event.target.value)}
              />
            </div>
            <div className="grid gap-1 text-sm">
              <Label htmlFor={`${ids}-to`}>To</Label>
              <Input
                id={`${ids}-to`}
                type="date"
                value={to}
                onChange={(event) => setTo(event.target.value)}
              />
            </div>
            <a
              className="text-sm underline"
              href={retentionReportUrl(scope.orgId, from, to)}
              download
            >
              Download the deletion report (CSV)
            </a>
          </div>
        </>
      )}
    </section>
  )
}
