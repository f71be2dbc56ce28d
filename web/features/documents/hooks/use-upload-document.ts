import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { documentsKey } from '../api/documents-api'
import type { OrgScope } from '../../../lib/org-scope'
import type { DocumentDetail } from '../api/types'
import { uploadWithProgress } from '../../../hooks/upload-with-progress'
import { MAX_UPLOAD_BYTES, uploadProblem } from '../upload-rules'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'

/**
 * Files sent at once; the others wait their turn. Three keeps a batch of contracts moving without
 * one person's drop holding every request slot of a small firm's server (issue 43).
 */
export const UPLOAD_CONCURRENCY = 3

/** One file of the queue: where it is, the percentage sent (0–100), and how it ended. */
export interface UploadItem {
  key: number
  fileName: string
  status: 'queued' | 'uploading' | 'added' | 'failed'
  percent: number
  /** Why it failed: the client check's message or the server's problem detail. */
  error: string | null
  /** The stored document, once added. */
  document: DocumentDetail | null
}

interface Waiting {
  key: number
  file: File
  documentType: string
  /** The batch's only file: it is opened once added (as a single upload always was). */
  open: boolean
}

/**
 * Uploads files as documents of `scope` (its app, if one is chosen) through the one uploader
 * (uploadWithProgress), UPLOAD_CONCURRENCY at a time, each with its own progress and outcome in
 * `items`: files failing the client checks (type, empty; 25 MB) fail at once, unsent; server
 * refusals end their file with the problem's detail. Each success refreshes the library; a batch
 * of one file calls `onAdded` with its document (a larger batch leaves the choice to the list).
 */
export function useUploadDocument(scope: OrgScope, onAdded: (document: DocumentDetail) => void) {
  const queryClient = useQueryClient()
  const [items, setItems] = useState<UploadItem[]>([])
  const waiting = useRef<Waiting[]>([])
  const running = useRef(0)
  const nextKey = useRef(0)

  const patch = (key: number, change: Partial<UploadItem>) =>
    setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)))

  const send = (job: Waiting) => {
    running.current += 1
    patch(job.key, { status: 'uploading' })
    uploadWithProgress('uploadDocument', {
      url: `/api/v1/orgs/${encodeURIComponent(scope.orgId)}/documents`,
      file: job.file,
      fileName: job.file.name,
      fields: { documentType: job.documentType, appId: scope.appId ?? undefined },
      maxBytes: MAX_UPLOAD_BYTES,
      onProgress: (fraction) => patch(job.key, { percent: Math.round(fraction * 100) }),
    })
      .then(async (document) => {
        patch(job.key, { status: 'added', percent: 100, document })
        await refreshAfterWrite(queryClient, documentsKey(scope.orgId))
        if (job.open) onAdded(document)
      })
      .catch((error: unknown) =>
        patch(job.key, {
          status: 'failed',
          error: (error instanceof Error && error.message) || 'Upload failed',
        }),
      )
      .finally(() => {
        running.current -= 1
        pump()
      })
  }

  const pump = () => {
    while (running.current < UPLOAD_CONCURRENCY) {
      const job = waiting.current.shift()
      if (!job) return
      send(job)
    }
  }

  const upload = (files: readonly File[], documentType: string) => {
    const added: UploadItem[] = files.map((file) => {
      const key = nextKey.current++
      const problem = uploadProblem(file) ?? sizeProblem(file)
      if (!problem) waiting.current.push({ key, file, documentType, open: files.length === 1 })
      return {
        key,
        fileName: file.name,
        status: problem ? 'failed' : 'queued',
        percent: 0,
        error: problem,
        document: null,
      }
    })
    setItems((all) => [...all, ...added])
    pump()
  }

  /** Drops the files that have ended (added or failed) from the list. */
  const clearFinished = () =>
    setItems((all) => all.filter((item) => item.status === 'queued' || item.status === 'uploading'))

  return { upload, items, clearFinished }
}

/** The 25 MB refusal uploadWithProgress would give, said before the file joins the queue. */
function sizeProblem(file: File): string | null {
  return file.size > MAX_UPLOAD_BYTES ? `${file.name} is larger than 25 MB.` : null
}
