/**
 * Voice test helpers: a member who has acknowledged the recording-consent notice, an upload of a
 * recording through the API, and a transcriber that "hears" fixed segments in any audio (for
 * tests of what happens around recognition, not of recognition).
 */
import type { Transcriber, TranscribeOptions, TranscriptSegment } from '../ai/speech/types'
import { signedInMember, type TestApp, type TestMember } from './test-app'

/** A signed-in member of a new organisation who has acknowledged the consent notice. */
export async function consentedMember(t: TestApp, orgName?: string): Promise<TestMember> {
  const member = await signedInMember(t, orgName)
  await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/voice/consent`,
    headers: member.headers,
  })
  return member
}

/**
 * POSTs `bytes` as the recording `memo.wav` (claimed as `mime`, default audio/wav) with the
 * form's other `fields` as `member`; resolves to the response.
 */
export function uploadRecording(
  t: TestApp,
  member: TestMember,
  bytes: Uint8Array,
  { mime = 'audio/wav', fields = {} }: { mime?: string; fields?: Record<string, string> } = {},
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }), 'memo.wav')
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/recordings`,
    headers: member.headers,
    payload: form,
  })
}

/**
 * A Transcriber that returns `segments` (engine 'test', model `model`) for any audio, after
 * `onCall` has seen the call's arguments.
 */
export function scriptedTranscriber(
  segments: TranscriptSegment[],
  model: string,
  onCall: (...args: Parameters<Transcriber['transcribe']>) => Promise<void> = async () => {},
): Transcriber {
  return {
    async transcribe(audio, mime, options?: TranscribeOptions) {
      await onCall(audio, mime, options)
      return {
        text: segments.map((s) => s.text).join(' '),
        segments,
        language: 'en',
        engine: 'test',
        model,
        durationSec: segments.at(-1)?.end ?? 0,
      }
    },
  }
}
