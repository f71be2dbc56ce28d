import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { documentsKey } from './api'
import type { OrgScope } from '../../lib/org-scope'
import type { DocumentDetail } from './types'
import { uploadWithProgress } from '../../lib/upload-with-progress'
import { MAX_UPLOAD_BYTES, uploadProblem } from './upload-rules'
import { refreshAfterWrite } from '../../lib/refresh-after-write'

/** The upload in flight: its file name and the percentage sent (0–100). */
export interface UploadProgress {
  fileName: string
  percent: number
}

/**
 * Uploads a file as a document of `scope` (its app, if one is chosen). Files failing the client
 * checks (type, empty; the 25 MB limit is uploadWithProgress's) and server refusals (their
 * problem's detail) end in an error toast; success refreshes the library and calls `onAdded`
 * with the new document.
 */
export function useUploadDocument(scope: OrgScope, onAdded: (document: DocumentDetail) => void) {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const mutation = useMutation({
    mutationFn: ({ file, documentType }: { file: File; documentType: string }) =>
      uploadWithProgress('uploadDocument', {
        url: `/api/v1/orgs/${encodeURIComponent(scope.orgId)}/documents`,
        file,
        fileName: file.name,
        fields: {
          documentType,
          appId: scope.appId ?? undefined,
        },
        maxBytes: MAX_UPLOAD_BYTES,
        onProgress: (fraction) =>
          setProgress({ fileName: file.name, percent: Math.round(fraction * 100) }),
      }),
    onSuccess: async (document) => {
      toast.success(`Added ${document.title}`)
      await refreshAfterWrite(queryClient, documentsKey(scope.orgId))
      onAdded(document)
    },
    onError: (error) => {
      toast.error(error.message || 'Upload failed')
    },
    onSettled: () => setProgress(null),
  })

  const upload = (file: File, documentType: string) => {
    const problem = uploadProblem(file)
    if (problem) {
      toast.error(problem)
      return
    }
    setProgress({ fileName: file.name, percent: 0 })
    mutation.mutate({ file, documentType })
  }

  return { upload, progress }
}
