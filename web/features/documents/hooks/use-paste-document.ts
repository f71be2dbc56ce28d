import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { createTextDocument, documentsKey } from '../api/documents-api'
import type { OrgScope } from '../../../lib/org-scope'
import type { DocumentDetail } from '../api/types'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'

/** Longest title derived from the first line of pasted text. */
const DERIVED_TITLE_LENGTH = 80

/** The given title, else the first line of the text (cut to 80 characters). */
function titleFor(title: string, content: string): string {
  const firstLine = content.trim().split('\n', 1)[0]?.trim() ?? ''
  return title.trim() || firstLine.slice(0, DERIVED_TITLE_LENGTH) || 'Untitled document'
}

/**
 * Stores pasted text as a document of `scope` (its app, if one is chosen). `add` resolves true once stored (so the form can clear);
 * empty text gives the spec's 'Please paste a document to analyze' toast and sends nothing.
 */
export function usePasteDocument(scope: OrgScope, onAdded: (document: DocumentDetail) => void) {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: (body: { title: string; content: string; documentType: string }) =>
      createTextDocument(scope.orgId, { ...body, appId: scope.appId ?? undefined }),
    onSuccess: async (document) => {
      toast.success(`Added ${document.title}`)
      await refreshAfterWrite(queryClient, documentsKey(scope.orgId))
      onAdded(document)
    },
    onError: (error) => {
      toast.error(error.message || 'Failed to add document')
    },
  })

  const add = async (input: { title: string; content: string; documentType: string }) => {
    if (!input.content.trim()) {
      toast.error('Please paste a document to analyze')
      return false
    }
    try {
      await mutation.mutateAsync({ ...input, title: titleFor(input.title, input.content) })
      return true
    } catch {
      return false // already reported by onError
    }
  }

  return { add, isAdding: mutation.isPending }
}
