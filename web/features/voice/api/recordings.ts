/** Recordings data access: list, detail, audio address, upload with progress, delete. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api'
import { uploadWithProgress } from '../../../hooks/upload-with-progress'
import type { components } from '../../../lib/api-schema'

export type Recording = components['schemas']['Recording']
export type RecordingDetail = components['schemas']['RecordingDetail']
export type MemoSummary = components['schemas']['MemoSummary']
export type Segment = RecordingDetail['segments'][number]

export const recordingsKey = (orgId: string) => ['orgs', orgId, 'recordings'] as const

/** The latest 50 recordings of the organisation, or of one app when `appId` is given. */
export const recordingsQuery = (orgId: string, appId: string | null) =>
  queryOptions({
    queryKey: [...recordingsKey(orgId), { appId }],
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/recordings', {
          params: { path: { orgId }, query: { limit: 50, appId: appId ?? undefined } },
          signal,
        })
        .then(unwrap),
  })

export const recordingQuery = (orgId: string, recordingId: string) =>
  queryOptions({
    queryKey: [...recordingsKey(orgId), recordingId],
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/recordings/{recordingId}', {
          params: { path: { orgId, recordingId } },
          signal,
        })
        .then(unwrap),
  })

/** Where the audio of a recording plays from. */
export function recordingAudioUrl(orgId: string, recordingId: string): string {
  return `/api/v1/orgs/${encodeURIComponent(orgId)}/recordings/${recordingId}/audio`
}

export function deleteRecording(orgId: string, recordingId: string) {
  return api
    .DELETE('/api/v1/orgs/{orgId}/recordings/{recordingId}', {
      params: { path: { orgId, recordingId } },
    })
    .then(unwrap)
}

/** Upload limit of one recording (the uploadRecording operation), in bytes: 100 MB. */
const MAX_RECORDING_BYTES = 100 * 1024 * 1024

/**
 * Uploads a recording (filed under the scope's app if one is chosen), reporting the fraction
 * sent (0–1). Resolves to the recording and its transcription job; rejects with ApiError.
 */
export function uploadRecording(
  scope: { orgId: string; appId: string | null },
  audio: Blob,
  onProgress: (fraction: number) => void,
) {
  return uploadWithProgress('uploadRecording', {
    url: `/api/v1/orgs/${encodeURIComponent(scope.orgId)}/recordings`,
    file: audio,
    fileName: 'recording.webm',
    fields: { appId: scope.appId ?? undefined },
    maxBytes: MAX_RECORDING_BYTES,
    onProgress,
  })
}
