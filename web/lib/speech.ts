/**
 * Text to speech on the web side: functions that turn text into base64 MP3 through the server,
 * for the Listen button (web/components/listen-button.tsx). The server cuts text to 4000
 * characters.
 */
import { api, ApiError, unwrap } from './api'

/** Turns text into base64 MP3 audio; rejects with an Error carrying the server's message. */
export type Synthesize = (text: string) => Promise<string>

/** Speech through the organisation's engine: POST /api/v1/orgs/{orgId}/speech. */
export function orgSpeech(orgId: string): Synthesize {
  return (text) =>
    api
      .POST('/api/v1/orgs/{orgId}/speech', { params: { path: { orgId } }, body: { text } })
      .then(unwrap)
      .then((answer) => answer.audioContent)
}

/**
 * POSTs JSON to a public demo endpoint (/api/demo/…, outside the typed tenant API) and returns
 * its JSON answer; throws ApiError with the problem's detail on a non-2xx answer.
 */
export async function postDemo<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const response = await globalThis.fetch(`/api/demo/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  const json = (await response.json().catch(() => undefined)) as unknown
  if (!response.ok) {
    const problem = json !== null && typeof json === 'object' ? json : undefined
    throw new ApiError(response.status, problem, response.statusText)
  }
  return json as T
}

/** Speech through the public demo: POST /api/demo/speech. */
export const demoSpeech: Synthesize = (text) =>
  postDemo<{ audioContent: string }>('speech', { text }).then((a) => a.audioContent)

/**
 * A `blob:` URL for base64 MP3, playable by an audio element (the content security policy admits
 * `blob:` media, not `data:`). Revoke it with URL.revokeObjectURL when replaced.
 */
export function mp3BlobUrl(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return URL.createObjectURL(new Blob([bytes], { type: 'audio/mpeg' }))
}
