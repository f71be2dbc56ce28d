import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/test-app'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { encodeAudio, spokenWav } from '../../test/test-audio'
import { concatList, hlsPlaylist, scriptPolyglot, spokenMp3 } from '../../test/hostile-audio'
import { SAMPLE_CONTRACT } from '../../test/sample-files'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ demoLimits: { perClient: 12, windowMs: 60_000 } })
})
afterAll(() => t.close())

const post = (path: string, payload: unknown, ip = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: `/api/demo${path}`,
    headers: { origin: TEST_ORIGIN },
    payload: payload as object,
    remoteAddress: ip,
  })

describe('public demo API', () => {
  it('transcribes a spoken question without a session and stores nothing', async () => {
    const audio = await encodeAudio(await spokenWav('What is a lease?'), 'webm')
    const res = await post('/transcribe', {
      audio: audio.toString('base64'),
      mimeType: 'audio/webm',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      transcript: expect.any(String),
      durationSec: expect.any(Number),
    })
    const stored = await t.database.db.execute('select count(*)::int as n from recordings')
    expect((stored as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0)
  })

  it('rejects audio over 60 seconds and text over 20,000 characters', async () => {
    const long = await encodeAudio(
      await spokenWav('The tenant shall pay rent on time.', 30),
      'webm',
    )
    const audio = await post('/transcribe', { audio: long.toString('base64') }, '10.0.0.2')
    expect(audio.statusCode).toBe(413)
    expect(audio.json()).toMatchObject({ code: 'audio_too_long' })
    const text = await post('/analyze', { documentText: 'a'.repeat(20_001) }, '10.0.0.2')
    expect(text.statusCode).toBe(400)
    expect(text.json().detail).toContain('20,000')
    const broken = await post(
      '/transcribe',
      { audio: Buffer.from('not audio').toString('base64') },
      '10.0.0.2',
    )
    expect(broken.statusCode).toBe(400)
    expect(broken.json()).toMatchObject({ code: 'bad_audio' })
  }, 30_000)

  describe('reads only the bytes sent', () => {
    /** An MP3 elsewhere on the server, as another organisation's recording would be. */
    let secretDir: string
    let secretFile: string
    beforeAll(async () => {
      secretDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-demo-secret-'))
      secretFile = path.join(secretDir, 'privileged.mp3')
      await writeFile(secretFile, await spokenMp3('Privileged settlement figures.'))
    })
    afterAll(() => rm(secretDir, { recursive: true, force: true }))

    const cases: [string, () => Buffer][] = [
      ['an HLS playlist naming a file on the server', () => hlsPlaylist([secretFile])],
      ['an HLS playlist of file:// URLs', () => hlsPlaylist([`file://${secretFile}`])],
      ['an ffconcat list', () => concatList([secretFile])],
      [
        'a playlist naming one file 2,000 times',
        () => hlsPlaylist(Array.from({ length: 2000 }, () => secretFile)),
      ],
    ]
    it.each(cases)('refuses %s with 400 bad_audio and no transcript', async (name, make) => {
      const res = await post(
        '/transcribe',
        { audio: make().toString('base64'), mimeType: 'audio/mpeg' },
        `10.0.1.${cases.findIndex(([n]) => n === name)}`,
      )
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'bad_audio' })
      expect(res.body).not.toContain('transcript')
    })

    it('refuses a script that ffmpeg would decode as MP3', async () => {
      const polyglot = scriptPolyglot(await spokenMp3())
      const res = await post('/transcribe', { audio: polyglot.toString('base64') }, '10.0.1.9')
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'bad_audio' })
    })
  })

  it("answers 'What is an NDA?' from the glossary's NDA entry, cited, never from another entry", async () => {
    const res = await post('/answer', { question: 'What is an NDA?' }, '10.0.0.3')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      answered: true,
      sources: [{ id: 'glossary:nda', title: 'Non-disclosure agreement (NDA)' }],
    })
    expect(body.answer).toContain('A non-disclosure agreement is a contract')
    expect(body.answer).toContain('(glossary: Non-disclosure agreement (NDA))')
    expect(body.answer).not.toMatch(/binding/i)
  })

  it('says no glossary entry covers a question naming none of its terms, instead of answering another', async () => {
    for (const question of ['What makes a contract binding?', 'Who won the football?']) {
      const res = await post('/answer', { question }, '10.0.0.3')
      expect(res.json()).toMatchObject({ answered: false, sources: [] })
      expect(res.json().answer).toMatch(
        /^None of the \d+ entries of Lexdesk’s contract glossary covers this question/,
      )
    }
  })

  it('reads text aloud and analyses pasted text', async () => {
    const speech = await post('/speech', { text: 'A short answer.' }, '10.0.0.4')
    expect(Buffer.from(speech.json().audioContent as string, 'base64').byteLength).toBeGreaterThan(
      500,
    )
    const analysis = await post(
      '/analyze',
      { documentText: SAMPLE_CONTRACT, analysisType: 'risks' },
      '10.0.0.4',
    )
    expect(analysis.statusCode).toBe(200)
    expect(analysis.json().analysis).toMatchObject({ engine: 'local', risks: expect.any(Array) })
    expect(analysis.json().analysis.risks.length).toBeGreaterThan(0)
  })

  it('rate limits each client, not everyone', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 14; i++)
      statuses.push((await post('/answer', { question: 'What is an NDA?' }, '10.0.0.9')).statusCode)
    expect(statuses.slice(0, 12)).toEqual(Array(12).fill(200))
    const limited = await post('/answer', { question: 'What is an NDA?' }, '10.0.0.9')
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toMatchObject({ code: 'rate_limited' })
    expect(limited.headers['retry-after']).toBeDefined()
    expect((await post('/answer', { question: 'What is an NDA?' }, '10.0.0.10')).statusCode).toBe(
      200,
    )
  })
})
