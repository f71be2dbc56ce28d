/**
 * The writes of the library and the document page: rename one document, delete one or several.
 * Each resolves to whether it succeeded, refreshes the organisation's document queries, and says
 * so in a toast; a refusal (a member's write to someone else's document, 403) toasts the server's
 * reason and changes nothing.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'
import { deleteDocument, deleteDocuments, documentsKey, renameDocument } from '../api/documents-api'

function failed(action: string) {
  return (error: unknown) =>
    toast.error(action, { description: error instanceof Error ? error.message : undefined })
}

/** `count` documents in words: '1 document', '3 documents'. */
export function documentCount(count: number): string {
  return `${count} ${count === 1 ? 'document' : 'documents'}`
}

/**
 * Rename and delete for the documents of `orgId`. `onDeleted(ids)` runs after a delete with the
 * ids that are gone (to close an open one or clear a selection).
 */
export function useDocumentActions(orgId: string, onDeleted?: (ids: string[]) => void) {
  const queryClient = useQueryClient()
  const refresh = () => refreshAfterWrite(queryClient, documentsKey(orgId))

  const rename = useMutation({
    mutationFn: (input: { id: string; title: string }) =>
      renameDocument(orgId, input.id, input.title),
    onSuccess: async (document) => {
      toast.success('Document renamed', { description: document.title })
      await refresh()
    },
    onError: failed('Could not rename the document'),
  })

  const remove = useMutation({
    mutationFn: async (ids: string[]) => {
      if (ids.length === 1 && ids[0] !== undefined) {
        await deleteDocument(orgId, ids[0])
        return 1
      }
      return deleteDocuments(orgId, ids)
    },
    onSuccess: async (deleted, ids) => {
      toast.success(`Deleted ${documentCount(deleted)}`)
      onDeleted?.(ids)
      for (const id of ids) queryClient.removeQueries({ queryKey: [...documentsKey(orgId), id] })
      await refresh()
    },
    onError: (error, ids) =>
      failed(ids.length === 1 ? 'Could not delete the document' : 'Could not delete the documents')(
        error,
      ),
  })

  return {
    /** Renames document `id`; resolves to whether it was saved. */
    rename: (id: string, title: string) =>
      rename.mutateAsync({ id, title }).then(
        () => true,
        () => false,
      ),
    /** Deletes the documents `ids` (one transaction); resolves to whether they were deleted. */
    remove: (ids: string[]) =>
      remove.mutateAsync(ids).then(
        () => true,
        () => false,
      ),
    isRenaming: rename.isPending,
    isDeleting: remove.isPending,
  }
}
