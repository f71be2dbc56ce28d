/** The SQL runner's state: the query text, running it, its result, and the CSV download. */
import { useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { fetchSqlCsv, runSql } from './api'

/** Saves `blob` as a file named `name` through a temporary link (the browser's download). */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  URL.revokeObjectURL(url)
}

/**
 * Runs the text of the editor (each run refreshes the history `['orgs', orgId, 'sql',
 * 'history']`, refused ones included) and downloads the last query's CSV; a refused export is a
 * toast with the server's words.
 */
export function useSqlRunner(orgId: string) {
  const queryClient = useQueryClient()
  const [text, setText] = useState(
    'select title, document_type, created_at\nfrom sql_documents\norder by created_at desc',
  )
  const refreshHistory = () =>
    queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'sql', 'history'] })
  const run = useMutation({
    mutationFn: (sql: string) => runSql(orgId, sql),
    onSettled: refreshHistory,
  })
  const exportCsv = useMutation({
    mutationFn: (sql: string) => fetchSqlCsv(orgId, sql),
    onSuccess: (blob) => saveFile(blob, `query-${new Date().toISOString().slice(0, 10)}.csv`),
    onError: (error) => toast.error(error.message),
    onSettled: refreshHistory,
  })
  const canRun = text.trim() !== '' && !run.isPending
  return {
    text,
    setText,
    run: () => {
      if (canRun) run.mutate(text)
    },
    running: run.isPending,
    result: run.data,
    error: run.error,
    /** Downloads the CSV of the query whose result is shown (not of the text edited since). */
    exportCsv: () => {
      if (run.variables) exportCsv.mutate(run.variables)
    },
    exporting: exportCsv.isPending,
  }
}
