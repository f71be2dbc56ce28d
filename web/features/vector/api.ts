/** Search-by-meaning data access: passage search, semantic_search, embeddings, index state. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components, operations } from '../../lib/api-schema'

export type Passage = components['schemas']['Passage']
export type SemanticRow = components['schemas']['SemanticSearchRow']
export type PassageState =
  operations['getDocumentPassages']['responses'][200]['content']['application/json']

/** The `k` passages of the org (or app) best matching `query`, by meaning and words. */
export function searchPassages(
  orgId: string,
  body: { query: string; k: number; appId?: string },
): Promise<Passage[]> {
  return api
    .POST('/api/v1/orgs/{orgId}/search', { params: { path: { orgId } }, body })
    .then(unwrap)
    .then((r) => r.items)
}

/** The configured engine's embedding of `text` (the spec's embedding function). */
export function embedText(orgId: string, text: string, appId: string | null): Promise<unknown> {
  return api
    .POST('/api/v1/orgs/{orgId}/embeddings', {
      params: { path: { orgId } },
      body: { text, org_id: orgId, app_id: appId },
    })
    .then(unwrap)
}

/** The spec's semantic_search: rows nearest to `embedding`. */
export function semanticSearch(
  orgId: string,
  appId: string | null,
  embedding: number[],
  k: number,
): Promise<SemanticRow[]> {
  return api
    .POST('/api/v1/orgs/{orgId}/rpc/semantic_search', {
      params: { path: { orgId } },
      body: { _org: orgId, _app: appId, _emb: JSON.stringify(embedding), _k: k },
    })
    .then(unwrap)
}

/** Whether a document's passages are indexed (refreshed by its job's changes: PassageStatus). */
export const passageStateQuery = (orgId: string, documentId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'documents', documentId, 'passages'] as const,
    queryFn: ({ signal }): Promise<PassageState> =>
      api
        .GET('/api/v1/orgs/{orgId}/documents/{documentId}/passages', {
          params: { path: { orgId, documentId } },
          signal,
        })
        .then(unwrap),
  })
