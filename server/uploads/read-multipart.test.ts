import Fastify from 'fastify'
import multipart from '@fastify/multipart'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError } from '../errors/app-error'
import type { RequestPrincipal } from '../auth/principal'
import { readMultipart, type FileSink } from './read-multipart'

describe('readMultipart', () => {
  /**
   * A bare Fastify app with one route reading uploads of at most 16 bytes into `sink`, its
   * requests made by a credential bound to `boundTo` when given (as the guard would set it).
   */
  async function readerApp(sink: FileSink<unknown>, boundTo?: string) {
    const app = Fastify()
    await app.register(multipart)
    if (boundTo)
      app.addHook('onRequest', async (req) => {
        req.principal = { appId: boundTo } as RequestPrincipal
      })
    app.post('/upload', async (req) => {
      try {
        const { file, fields } = await readMultipart(req, {
          maxBytes: 16,
          fields: z.object({ title: z.string().max(5), note: z.string().optional() }),
          sink,
          missing: 'Send a file.',
        })
        return { file, fields }
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        return { code: error.code, detail: error.detail }
      }
    })
    return app
  }

  /** A sink that keeps stored files in `kept` and forgets discarded ones. */
  function recordingSink() {
    const kept = new Set<string>()
    const sink: FileSink<string> = {
      async store(file) {
        const chunks: Uint8Array[] = []
        for await (const chunk of file.chunks) chunks.push(chunk)
        const text = Buffer.concat(chunks).toString()
        kept.add(text)
        return `${file.fileName}:${text}`
      },
      discard: async (stored) => {
        kept.delete(stored.slice(stored.indexOf(':') + 1))
      },
    }
    return { sink, kept }
  }

  function send(app: Awaited<ReturnType<typeof readerApp>>, parts: [string, string, string?][]) {
    const form = new FormData()
    for (const [name, value, fileName] of parts) {
      if (fileName) form.append(name, new Blob([value]), fileName)
      else form.append(name, value)
    }
    return app.inject({ method: 'POST', url: '/upload', payload: form })
  }

  it('hands the file to the sink and checks fields sent before and after it', async () => {
    const { sink, kept } = recordingSink()
    const app = await readerApp(sink)
    const res = await send(app, [
      ['note', 'first'],
      ['file', 'sixteen bytes ok', 'a\u202Eb.txt'],
      ['title', 'NDA'],
    ])
    expect(res.json()).toEqual({
      file: 'ab.txt:sixteen bytes ok',
      fields: { title: 'NDA', note: 'first' },
    })
    expect([...kept]).toEqual(['sixteen bytes ok'])
    await app.close()
  })

  it('discards the stored file when a field after it fails its schema', async () => {
    const { sink, kept } = recordingSink()
    const app = await readerApp(sink)
    const res = await send(app, [
      ['file', 'contract', 'c.txt'],
      ['title', 'far too long'],
    ])
    expect(res.json()).toEqual({
      code: 'validation_failed',
      detail: 'title: Too big: expected string to have <=5 characters',
    })
    expect(kept.size).toBe(0)
    await app.close()
  })

  it('answers file_too_large for a file one byte over, and keeps nothing', async () => {
    const { sink, kept } = recordingSink()
    const app = await readerApp(sink)
    const res = await send(app, [
      ['title', 'NDA'],
      ['file', 'seventeen bytes!!', 'big.txt'],
    ])
    expect(res.json()).toEqual({ code: 'file_too_large', detail: expect.any(String) })
    expect(kept.size).toBe(0)
    await app.close()
  })

  it('answers file_missing without a file part, or with the file under another name', async () => {
    const app = await readerApp(recordingSink().sink)
    for (const parts of [
      [['title', 'NDA']],
      [
        ['title', 'NDA'],
        ['upload', 'contract', 'c.txt'],
      ],
    ] as [string, string, string?][][]) {
      expect((await send(app, parts)).json()).toEqual({
        code: 'file_missing',
        detail: 'Send a file.',
      })
    }
    await app.close()
  })

  it('answers bad_upload for too many fields and for a body that is not multipart', async () => {
    const app = await readerApp(recordingSink().sink)
    const fields = Array.from({ length: 11 }, (_, i) => [`f${i}`, 'x'] as [string, string])
    expect((await send(app, fields)).json()).toMatchObject({ code: 'bad_upload' })
    const json = await app.inject({ method: 'POST', url: '/upload', payload: { title: 'NDA' } })
    expect(json.json()).toMatchObject({ code: 'bad_upload' })
    await app.close()
  })

  it("refuses a field naming another app than the credential's, before or after the file", async () => {
    const appA = crypto.randomUUID()
    const appB = crypto.randomUUID()
    const { sink, kept } = recordingSink()
    const app = await readerApp(sink, appA)
    const refused = { code: 'app_not_found', detail: 'No such app in this organisation' }
    // Before the file: refused before the sink sees a byte; after it: the stored file discarded.
    for (const parts of [
      [
        ['appId', appB],
        ['file', 'first', 'a.txt'],
        ['title', 'NDA'],
      ],
      [
        ['title', 'NDA'],
        ['file', 'second', 'b.txt'],
        ['app_id', appB],
      ],
      [
        ['_app', appB],
        ['file', 'third', 'c.txt'],
        ['title', 'NDA'],
      ],
    ] as [string, string, string?][][]) {
      expect((await send(app, parts)).json()).toEqual(refused)
    }
    expect([...kept]).toEqual([])
    // Its own app, or an empty field (no app), passes; the route reads what it declares.
    for (const named of [appA, '']) {
      const res = await send(app, [
        ['appId', named],
        ['file', 'own', 'o.txt'],
        ['title', 'NDA'],
      ])
      expect(res.json()).toEqual({ file: 'o.txt:own', fields: { title: 'NDA' } })
    }
    await app.close()
  })
})
