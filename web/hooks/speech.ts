/**
 * Text to speech on the web side: functions that turn text into base64 MP3 through the server,
 * for the Listen button (web/components/listen-button.tsx). Text is cut to SPEECH_MAX_CHARS
 * before it is sent, as the server would cut it: a long transcript would otherwise be refused
 * whole (the API takes at most 100,000 characters).
 */
import { api, ApiError, unwrap } from '../lib/api'

/**
 * Characters of text read aloud (product spec §5 and §9); the server cuts at the same number
 * (SPEECH_MAX_CHARS in server/ai/speech/types.ts).
 */
const SPEECH_MAX_CHARS = 4000

/** `text` cut to its first SPEECH_MAX_CHARS characters (code points, so no half emoji). */
function speechText(text: string): string {
  const chars = Array.from(text)
  return chars.length <= SPEECH_MAX_CHARS ? text : chars.slice(0, SPEECH_MAX_CHARS).join('')
}

/** Turns text into base64 MP3 audio; rejects with an Error carrying the server's message. */
export type Synthesize = (text: string) => Promise<string>

/** Speech through the organisation's engine: POST /api/v1/orgs/{orgId}/speech. */
export function orgSpeech(orgId: string): Synthesize {
  return (text) =>
    api
      .POST('/api/v1/orgs/{orgId}/speech', {
        params: { path: { orgId } },
        body: { text: speechText(text) },
      })
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
  postDemo<{ audioContent: string }>('speech', { text: speechText(text) }).then(
    (a) => a.audioContent,
  )

/**
 * A `blob:` URL for base64 MP3, playable by an audio element (the content security policy admits
 * `blob:` media, not `data:`). Revoke it with URL.revokeObjectURL when replaced.
 */
export function mp3BlobUrl(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return URL.createObjectURL(new Blob([bytes], { type: 'audio/mpeg' }))
}
