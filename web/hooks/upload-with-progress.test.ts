import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeXhr, installFakeXhr } from '../test/fake-xhr'
import { ApiError } from '../lib/api'
import { uploadWithProgress } from './upload-with-progress'

const URL = '/api/v1/orgs/org-1/entities/import'

function upload(options: { size?: number; signal?: AbortSignal; onProgress?: () => void } = {}) {
  return uploadWithProgress('importEntities', {
    url: URL,
    file: new Blob(['x'.repeat(options.size ?? 10)]),
    fileName: 'clients.csv',
    fields: { note: 'first', skipped: undefined },
    maxBytes: 1024 * 1024,
    onProgress: options.onProgress,
    signal: options.signal,
  })
}

describe('uploadWithProgress', () => {
  beforeEach(() => installFakeXhr())

  it('posts the fields before the file, reports progress and resolves to the answer', async () => {
    const onProgress = vi.fn()
    const answer = upload({ onProgress })
    const xhr = FakeXhr.instances[0]!
    expect([xhr.method, xhr.url]).toEqual(['POST', URL])
    const form = xhr.body as FormData
    expect([...form.keys()]).toEqual(['note', 'file'])
    expect((form.get('file') as File).name).toBe('clients.csv')
    xhr.progress(5, 10)
    expect(onProgress).toHaveBeenCalledWith(0.5)
    xhr.respond(202, { id: 'job-1', status: 'queued' })
    await expect(answer).resolves.toEqual({ id: 'job-1', status: 'queued' })
  })

  it("rejects with an ApiError carrying the problem's code, status and detail", async () => {
    const answer = upload()
    FakeXhr.instances[0]!.respond(403, {
      status: 403,
      code: 'forbidden',
      title: 'Forbidden',
      detail: 'Only admins may import.',
    })
    const error = await answer.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: 'Only admins may import.',
    })
  })

  it('refuses a file over maxBytes with the file_too_large problem, sending nothing', async () => {
    const error = await upload({ size: 1024 * 1024 + 1 }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      status: 413,
      code: 'file_too_large',
      message: 'clients.csv is larger than 1 MB.',
    })
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it('rejects with a codeless ApiError when the server cannot be reached, and an AbortError on abort', async () => {
    const failed = upload()
    FakeXhr.instances[0]!.onerror?.()
    await expect(failed).rejects.toMatchObject({ status: 0, code: undefined })

    const controller = new AbortController()
    const aborted = upload({ signal: controller.signal })
    controller.abort()
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
  })
})
