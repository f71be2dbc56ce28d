import { useId } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Download, Play } from 'lucide-react'
import { Button } from '../../components/ui/button'
import { Textarea } from '../../components/ui/textarea'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { sqlHistoryQuery } from './api'
import { SqlHistoryList } from './sql-history-list'
import { SqlResults } from './sql-results'
import { useSqlRunner } from './use-sql-runner'

/**
 * The SQL runner for owners and admins: a plain editor (Ctrl+Enter or ⌘+Enter runs), the result
 * with column types, row count and time, a CSV download, and the caller's last 20 queries.
 * Members are told so instead of the editor (nothing is asked of the server for them; a 403 from
 * a role changed meanwhile says the same).
 */
export function SqlScreen({ orgId }: { orgId: string }) {
  const ids = useId()
  const manages = managesOrganisation(useOrgRole())
  const history = useQuery({ ...sqlHistoryQuery(orgId), enabled: manages })
  const runner = useSqlRunner(orgId)

  if (!manages || (history.error instanceof ApiError && history.error.code === 'forbidden'))
    return (
      <p role="alert" className="text-sm text-muted-foreground">
        Only owners and admins can use the SQL runner.
      </p>
    )

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
      <div className="flex min-w-0 flex-col gap-3">
        <label htmlFor={`${ids}-sql`} className="text-sm font-medium">
          Query
        </label>
        <Textarea
          id={`${ids}-sql`}
          value={runner.text}
          onChange={(event) => runner.setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault()
              runner.run()
            }
          }}
          spellCheck={false}
          rows={8}
          aria-describedby={`${ids}-rules`}
          className="font-mono"
        />
        <p id={`${ids}-rules`} className="text-xs text-muted-foreground">
          One read-only SELECT over the views {history.data?.views.join(', ') ?? 'sql_*'}. At most
          1,000 rows are shown; queries the planner estimates as too costly are refused before they
          run, and a query still running after 5 seconds is stopped. Ctrl+Enter (⌘+Enter) runs.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={runner.run} disabled={runner.running}>
            <Play aria-hidden="true" />
            {runner.running ? 'Running…' : 'Run'}
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={runner.exportCsv}
            disabled={!runner.result || runner.exporting}
          >
            <Download aria-hidden="true" />
            Export CSV
          </Button>
        </div>
        {runner.error && (
          <p role="alert" className="text-sm text-destructive">
            {runner.error.message}
          </p>
        )}
        {runner.result && !runner.error && <SqlResults result={runner.result} />}
      </div>
      <SqlHistoryList
        entries={history.data?.items}
        error={history.error}
        onChoose={runner.setText}
      />
    </div>
  )
}
