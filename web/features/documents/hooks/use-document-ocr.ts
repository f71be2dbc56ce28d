/**
 * The OCR of an open scanned PDF (issue 26): its latest 'ocr' job (found again after a reload),
 * followed live through `useJob`; starting it again (`startDocumentOcr`) and cancelling it. When
 * the job ends, the document is fetched again, so its recognised text replaces the empty one. A
 * refused cancel is a toast with the server's reason.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { cancelJob, jobQuery, latestJobQuery, useJob, type Job } from '../../../hooks/jobs'
import { documentsKey, startDocumentOcr } from '../api/documents-api'
import type { DocumentDetail } from '../api/types'

export function useDocumentOcr(
  orgId: string,
  /** The open document; undefined while it loads. */
  document: Pick<DocumentDetail, 'id' | 'textStatus' | 'mimeType'> | undefined,
) {
  const queryClient = useQueryClient()
  // Only a PDF still without text has (or may get) an OCR job worth showing.
  const scan = document?.textStatus === 'empty' && document.mimeType === 'application/pdf'
  const documentId = document?.id ?? ''
  const latest = useQuery({
    ...latestJobQuery(orgId, { kind: 'ocr', subjectId: documentId }),
    enabled: scan,
  })
  const [startedId, setStartedId] = useState<string | undefined>(undefined)
  const jobId = scan ? (startedId ?? latest.data?.id) : undefined
  const job = useJob(orgId, jobId, () => {
    void queryClient.invalidateQueries({ queryKey: documentsKey(orgId) })
  })
  const start = useMutation({
    mutationFn: () => startDocumentOcr(orgId, documentId),
    onSuccess: (started: Job) => {
      queryClient.setQueryData(jobQuery(orgId, started.id).queryKey, started)
      setStartedId(started.id)
    },
  })
  // A refused cancel (the job ended meanwhile, or the role may not) is said, not dropped.
  const cancel = () => {
    if (!jobId) return
    cancelJob(orgId, jobId).then(
      (j) => queryClient.setQueryData(jobQuery(orgId, j.id).queryKey, j),
      (error: unknown) =>
        toast.error('Could not cancel', {
          description: error instanceof Error ? error.message : undefined,
        }),
    )
  }
  return { scan, job: scan ? (job ?? latest.data ?? null) : null, start, cancel }
}
