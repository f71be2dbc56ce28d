import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Job } from '../../hooks/jobs'
import { fakeMicrophone } from '../../test/fake-microphone'
import { FakeXhr, installFakeXhr } from '../../test/fake-xhr'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { MemoSummary, RecordingDetail } from './api/recordings'
import { VoicePage } from './voice-page'

const ORG = 'org-1'
const RECORDING_ID = '00000000-0000-4000-8000-00000000000a'
const DOCUMENT_ID = '00000000-0000-4000-8000-00000000000b'
const JOB_ID = '00000000-0000-4000-8000-00000000000c'
const SUMMARY_JOB_ID = '00000000-0000-4000-8000-00000000000d'

const TRANSCRIPT = [
  'The landlord wants twelve percent more rent from March.',
  'We agreed to reject the increase.',
  'Tom Baker will send the revised draft to the landlord by Friday.',
]
const MEMO: MemoSummary = {
  keyPoints: [{ text: 'Landlord wants twelve percent more rent', segment: 0, start: 0 }],
  decisions: [{ text: 'Reject the increase', segment: 1, start: 4 }],
  actionItems: [
    {
      text: 'Tom Baker: send the revised draft to the landlord (due Friday)',
      task: 'Send the revised draft to the landlord',
      owner: 'Tom Baker',
      due: 'Friday',
      segment: 2,
      start: 65,
    },
  ],
  names: [{ name: 'Tom Baker', segment: 2, start: 65 }],
}

const RECORDING: RecordingDetail = {
  id: RECORDING_ID,
  appId: null,
  title: 'Voice memo 26 Nov 2026, 10:00',
  mimeType: 'audio/webm',
  sizeBytes: 4,
  durationSec: 70,
  status: 'summarizing',
  error: null,
  errorCode: null,
  jobId: JOB_ID,
  summaryJobId: SUMMARY_JOB_ID,
  documentId: DOCUMENT_ID,
  engine: 'local',
  model: null,
  createdBy: 'user-1',
  memoSummary: MEMO,
  createdAt: '2026-11-26T10:00:00.000Z',
  transcript: TRANSCRIPT.join('\n'),
  segments: [],
}

function transcription(result: Extract<Job, { kind: 'transcription' }>['result']): Job {
  return {
    id: JOB_ID,
    kind: 'transcription',
    status: 'succeeded',
    progress: 1,
    message: null,
    error: null,
    errorCode: null,
    subjectId: RECORDING_ID,
    result,
    attempts: 1,
    createdBy: 'user-1',
    createdAt: '2026-11-26T10:00:00.000Z',
    startedAt: '2026-11-26T10:00:01.000Z',
    finishedAt: '2026-11-26T10:00:09.000Z',
  }
}

/** Records a memo on the voice screen; the server transcribes it with `job`'s result. */
/** The transcription job of a memo whose speech was recognised and summarised (MEMO). */
const summarisedTranscription = transcription({
  recordingId: RECORDING_ID,
  documentId: DOCUMENT_ID,
  summaryJobId: SUMMARY_JOB_ID,
  memoSummary: MEMO,
})

async function recordMemo(job: Job) {
  stubFetch({
    [`GET /api/v1/orgs/${ORG}/voice/consent`]: () =>
      jsonResponse({ acknowledgedAt: '2026-11-20T10:00:00.000Z' }),
    [`GET /api/v1/orgs/${ORG}/recordings`]: () => jsonResponse({ items: [RECORDING], total: 1 }),
    [`GET /api/v1/orgs/${ORG}/recordings/${RECORDING_ID}`]: () => jsonResponse(RECORDING),
    [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () => jsonResponse(job),
  })
  renderWithRouter({ element: inOrgScope(<VoicePage />) })
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Start recording' }))
  await user.click(await screen.findByRole('button', { name: 'Stop recording' }))
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(1))
  ;(FakeXhr.instances[0] as FakeXhr).respond(202, {
    recording: { ...RECORDING, status: 'transcribing', memoSummary: null },
    job: { ...job, status: 'queued', result: null },
  })
}

describe('VoicePage', () => {
  beforeEach(() => {
    installFakeXhr()
    fakeMicrophone()
  })

  it("shows the memo's summary in the analysis panel right after recording, not the transcript", async () => {
    await recordMemo(summarisedTranscription)
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    const summary = await within(panel).findByRole('region', {
      name: `Summary of ${RECORDING.title}`,
    })
    expect(within(summary).getByRole('list', { name: 'Key points' })).toHaveTextContent(
      '0:00Landlord wants twelve percent more rent',
    )
    expect(within(summary).getByRole('list', { name: 'Decisions' })).toHaveTextContent(
      '0:04Reject the increase',
    )
    expect(within(summary).getByRole('list', { name: 'Action items' })).toHaveTextContent(
      '1:05Tom Baker — Send the revised draft to the landlord · due Friday',
    )
    expect(within(summary).getByRole('list', { name: 'Names' })).toHaveTextContent('Tom Baker')
    for (const sentence of TRANSCRIPT) expect(panel).not.toHaveTextContent(sentence)
    expect(within(panel).getByRole('status')).toHaveTextContent('Ready')
    expect(await screen.findByText('Analysis complete!')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start recording' })).toBeEnabled()
  })

  it("toasts the spec's steps: transcribing, transcribed, analysing, analysed", async () => {
    await recordMemo(summarisedTranscription)
    const toast = (text: string) => screen.findByText(text, { selector: '[data-sonner-toast] *' })
    expect(await toast('Analysis complete!')).toBeInTheDocument()
    for (const step of [
      'Recording started',
      'Transcribing audio...',
      'Transcription complete!',
      'Analyzing document...',
    ])
      expect(await toast(step)).toBeInTheDocument()
  })

  it('plays the recording from the segment a time in the panel cites', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    await recordMemo(summarisedTranscription)
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    await userEvent.click(
      await within(panel).findByRole('button', {
        name: 'Play from 1:05: Tom Baker: send the revised draft to the landlord (due Friday)',
      }),
    )
    const audio = screen.getByLabelText<HTMLAudioElement>(`Play ${RECORDING.title}`)
    expect(audio.currentTime).toBe(65)
    expect(play).toHaveBeenCalled()
  })

  it('says no speech was recognised when the transcription queued no summary', async () => {
    await recordMemo(
      transcription({
        recordingId: RECORDING_ID,
        documentId: DOCUMENT_ID,
        summaryJobId: null,
        memoSummary: { keyPoints: [], decisions: [], actionItems: [], names: [] },
      }),
    )
    const panel = await screen.findByRole('region', { name: 'Analysis result' })
    expect(
      await within(panel).findByText('No speech was recognised in this recording.'),
    ).toBeInTheDocument()
  })
})
