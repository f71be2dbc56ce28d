import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { OpenAISpeaker, OpenAITranscriber } from './openai-speech'
import { pcmToWav } from './audio'
import { withAudioFile } from './with-audio-file'

interface Seen {
  path: string
  contentType: string
  authorization: string
  body: Buffer
}

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

/** A fake OpenAI-compatible audio API on 127.0.0.1 answering each request with `reply`. */
async function fakeProvider(
  reply: (seen: Seen) => { status: number; type: string; body: string | Buffer },
) {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request = {
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        authorization: req.headers.authorization ?? '',
        body: Buffer.concat(chunks),
      }
      seen.push(request)
      const answer = reply(request)
      res.writeHead(answer.status, { 'content-type': answer.type })
      res.end(answer.body)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { baseURL: `http://127.0.0.1:${port}/v1`, seen }
}

const VERBOSE = {
  task: 'transcribe',
  language: 'english',
  duration: 7.5,
  text: ' The tenant pays rent. On the first of the month.',
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0,
      end: 3.2,
      text: ' The tenant pays rent.',
      tokens: [],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1,
      no_speech_prob: 0,
    },
    {
      id: 1,
      seek: 0,
      start: 3.2,
      end: 7.5,
      text: ' On the first of the month.',
      tokens: [],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1,
      no_speech_prob: 0,
    },
  ],
}

const providerError = () => ({
  status: 500,
  type: 'application/json',
  body: JSON.stringify({ error: { message: 'gpu on fire at 10.0.0.7', type: 'server_error' } }),
})

describe('OpenAITranscriber', () => {
  it('sends nothing that is not audio of an allowed format (a playlist here)', async () => {
    const provider = await fakeProvider(() => ({
      status: 200,
      type: 'application/json',
      body: '{}',
    }))
    const playlist = new TextEncoder().encode('#EXTM3U\n#EXTINF:10,\n/etc/passwd\n')
    const error = await withAudioFile(playlist, (file) =>
      new OpenAITranscriber({ baseURL: provider.baseURL, model: 'whisper-1' }).transcribe(
        file,
        'audio/mpeg',
      ),
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'bad_audio', status: 400 })
    expect(provider.seen).toEqual([])
  })

  it('posts the audio as multipart with the model and verbose_json, and parses the segments', async () => {
    const provider = await fakeProvider(() => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify(VERBOSE),
    }))
    // A WAV claimed to be WebM: the provider is told what the bytes are.
    const audio = new Uint8Array(pcmToWav(Buffer.alloc(3200)))
    const transcript = await withAudioFile(audio, (file) =>
      new OpenAITranscriber({
        baseURL: provider.baseURL,
        apiKey: 'sk-test',
        model: 'whisper-1',
      }).transcribe(file, 'audio/webm;codecs=opus'),
    )

    const [request] = provider.seen
    expect(request?.path).toBe('/v1/audio/transcriptions')
    expect(request?.authorization).toBe('Bearer sk-test')
    const form = await new Response(new Uint8Array(request?.body ?? []), {
      headers: { 'content-type': request?.contentType ?? '' },
    }).formData()
    expect(form.get('model')).toBe('whisper-1')
    expect(form.get('response_format')).toBe('verbose_json')
    const file = form.get('file') as File
    expect(file.name).toBe('audio.wav')
    expect(file.type).toBe('audio/wav')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(audio)

    expect(transcript).toEqual({
      text: 'The tenant pays rent. On the first of the month.',
      segments: [
        // Confidence: e^-0.2, the segments' average log-probability as a probability.
        { start: 0, end: 3.2, text: 'The tenant pays rent.', confidence: 0.819 },
        { start: 3.2, end: 7.5, text: 'On the first of the month.', confidence: 0.819 },
      ],
      language: 'english',
      engine: 'openai',
      model: 'whisper-1',
      durationSec: 7.5,
    })
  })

  it('turns a provider error into a 502 problem that does not repeat the provider message', async () => {
    const provider = await fakeProvider(providerError)
    const error = await withAudioFile(pcmToWav(Buffer.alloc(3200)), (file) =>
      new OpenAITranscriber({ baseURL: provider.baseURL, model: 'whisper-1' }).transcribe(
        file,
        'audio/wav',
      ),
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'speech_failed' })
    expect((error as Error).message).not.toContain('10.0.0.7')
  })
})

describe('OpenAISpeaker', () => {
  it('posts model, voice, input cut to 4000 characters and mp3, and returns the audio', async () => {
    const mp3 = Buffer.from('ID3 fake mp3 bytes')
    const provider = await fakeProvider(() => ({ status: 200, type: 'audio/mpeg', body: mp3 }))
    const { audio, mime } = await new OpenAISpeaker({
      baseURL: provider.baseURL,
      model: 'tts-1',
    }).speak('x'.repeat(4500), 'nova')
    expect(provider.seen[0]?.path).toBe('/v1/audio/speech')
    const body = JSON.parse(provider.seen[0]?.body.toString() ?? '{}') as Record<string, string>
    expect(body).toMatchObject({ model: 'tts-1', voice: 'nova', response_format: 'mp3' })
    expect(body.input).toHaveLength(4000)
    expect(mime).toBe('audio/mpeg')
    expect(Buffer.from(audio)).toEqual(mp3)
  })

  it('turns a provider error into a 502 problem', async () => {
    const provider = await fakeProvider(providerError)
    const error = await new OpenAISpeaker({ baseURL: provider.baseURL, model: 'tts-1' })
      .speak('Hello')
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'speech_failed' })
  })
})
