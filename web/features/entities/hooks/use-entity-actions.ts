/**
 * The writes of the entities table: '+ New' (prompts), inline edits, per-row and bulk delete
 * (confirms), each followed by a reload and a toast; failures toast the server's message.
 * The spec's prompts, confirms and alerts are the browser's own dialogs.
 */
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import type { OrgScope } from '../../../lib/org-scope'
import {
  createEntity,
  deleteEntities,
  deleteEntity,
  entitiesKey,
  updateEntity,
} from '../api/entities-api'
import { parseData } from '../parse-data'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'

/** Default type of a new entity and the types the prompt suggests (spec section 5). */
export const DEFAULT_TYPE = 'item'
const TYPE_PROMPT = 'Type (e.g. project, customer, lead)'

function failed(error: unknown) {
  toast.error(error instanceof Error ? error.message : 'Something went wrong')
}

export function useEntityActions(scope: OrgScope, onCreated: () => void) {
  const queryClient = useQueryClient()
  const reload = () => refreshAfterWrite(queryClient, entitiesKey(scope.orgId))

  /** '+ New': name (cancel or empty aborts), type (default 'item'), optional JSON (default {}). */
  async function createFromPrompts() {
    const name = window.prompt('Name')?.trim()
    if (!name) return
    const type = window.prompt(TYPE_PROMPT, DEFAULT_TYPE)
    if (type === null) return
    const json = window.prompt('Initial JSON data (optional)', '{}')
    if (json === null) return
    const parsed = parseData(json)
    if ('error' in parsed) {
      window.alert(parsed.error)
      return
    }
    try {
      await createEntity(scope.orgId, {
        name,
        type: type.trim() || DEFAULT_TYPE,
        data: parsed.data,
        ...(scope.appId ? { appId: scope.appId } : {}),
      })
      toast.success('Entity created')
      onCreated()
      await reload()
    } catch (error) {
      failed(error)
    }
  }

  /** Saves one edited field; resolves to whether it was saved. */
  async function saveField(
    id: string,
    patch: { name?: string; type?: string; data?: Record<string, unknown> },
  ) {
    try {
      await updateEntity(scope.orgId, id, patch)
      await reload()
      return true
    } catch (error) {
      failed(error)
      return false
    }
  }

  async function removeOne(id: string) {
    if (!window.confirm('Delete entity?')) return
    try {
      await deleteEntity(scope.orgId, id)
      toast.success('Deleted')
      await reload()
    } catch (error) {
      failed(error)
    }
  }

  async function removeSelected(ids: string[]) {
    if (ids.length === 0) return
    if (!window.confirm(`Delete ${ids.length} entities?`)) return
    try {
      await deleteEntities(scope.orgId, ids)
      toast.success('Deleted')
      await reload()
    } catch (error) {
      failed(error)
    }
  }

  return { createFromPrompts, saveField, removeOne, removeSelected, reload }
}
