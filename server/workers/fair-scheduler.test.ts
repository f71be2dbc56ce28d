import { describe, expect, it } from 'vitest'
import { FairScheduler, type ReleaseSlot } from './fair-scheduler'

/** Requests slots as `share`, recording in `started` the label of each once it is granted. */
function requester(scheduler: FairScheduler, started: string[]) {
  const releases = new Map<string, ReleaseSlot>()
  const request = (share: string, label: string, signal?: AbortSignal) =>
    scheduler.acquire(share, signal).then((release) => {
      started.push(label)
      releases.set(label, release)
    })
  const release = (label: string) => {
    const slot = releases.get(label)
    if (!slot) throw new Error(`${label} holds no slot`)
    slot()
  }
  return { request, release }
}

describe('FairScheduler', () => {
  it('gives a freed slot to the organisation running fewest, not to the one that queued first', async () => {
    const scheduler = new FairScheduler(2, 0)
    const started: string[] = []
    const { request, release } = requester(scheduler, started)
    void request('firm-a', 'a1')
    void request('firm-a', 'a2')
    // Firm A's backlog of pages, queued before firm B's upload.
    for (const label of ['a3', 'a4', 'a5']) void request('firm-a', label)
    void request('firm-b', 'b1')
    await expect.poll(() => started).toEqual(['a1', 'a2'])
    release('a1')
    await expect.poll(() => started).toEqual(['a1', 'a2', 'b1'])
    // Now one each: the next freed slot goes back to A, the only one waiting.
    release('a2')
    await expect.poll(() => started).toEqual(['a1', 'a2', 'b1', 'a3'])
    expect(scheduler.queued).toBe(2)
  })

  it('takes turns between organisations that wait, whatever the order they queued in', async () => {
    const scheduler = new FairScheduler(1, 0)
    const started: string[] = []
    const { request, release } = requester(scheduler, started)
    void request('holder', 'h')
    for (const label of ['a1', 'a2', 'a3']) void request('firm-a', label)
    for (const label of ['b1', 'b2']) void request('firm-b', label)
    void request('firm-c', 'c1')
    await expect.poll(() => started).toEqual(['h'])
    for (const label of ['h', 'a1', 'b1', 'c1', 'a2', 'b2']) {
      release(label)
      await expect.poll(() => started.at(-1)).not.toBe(label)
    }
    expect(started).toEqual(['h', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3'])
  })

  it('starts an organisation running nothing on the spare slot while another holds every slot', async () => {
    const scheduler = new FairScheduler(2, 1)
    const started: string[] = []
    const { request, release } = requester(scheduler, started)
    for (const label of ['a1', 'a2', 'a3']) void request('firm-a', label)
    void request('firm-b', 'b1')
    // B on the spare at once; A's third page waits: the spare is never an organisation's third.
    await expect.poll(() => started).toEqual(['a1', 'a2', 'b1'])
    expect(scheduler.active).toBe(3)
    // B's second request waits too: B runs one already.
    void request('firm-b', 'b2')
    release('a1')
    await expect.poll(() => scheduler.queued).toBe(2)
    expect(started).toEqual(['a1', 'a2', 'b1'])
    // Back under the slots: one each is the fair share, so B's second goes before A's third.
    release('b1')
    await expect.poll(() => started).toEqual(['a1', 'a2', 'b1', 'b2'])
    release('a2')
    await expect.poll(() => started).toEqual(['a1', 'a2', 'b1', 'b2', 'a3'])
    expect(scheduler.active).toBe(2)
  })

  it('takes an aborted request out of the queue with its reason, and serves the next', async () => {
    const scheduler = new FairScheduler(1, 0)
    const started: string[] = []
    const { request, release } = requester(scheduler, started)
    void request('firm-a', 'a1')
    const controller = new AbortController()
    const cancelled = request('firm-b', 'b1', controller.signal)
    void request('firm-c', 'c1')
    controller.abort(new Error('job cancelled'))
    await expect(cancelled).rejects.toThrow('job cancelled')
    expect(scheduler.queued).toBe(1)
    release('a1')
    await expect.poll(() => started).toEqual(['a1', 'c1'])
    await expect(
      scheduler.acquire('firm-d', AbortSignal.abort(new Error('already'))),
    ).rejects.toThrow('already')
  })

  it('frees a slot once however often its release is called', async () => {
    const scheduler = new FairScheduler(1, 0)
    const started: string[] = []
    const { request, release } = requester(scheduler, started)
    void request('firm-a', 'a1')
    void request('firm-a', 'a2')
    void request('firm-a', 'a3')
    await expect.poll(() => started).toEqual(['a1'])
    release('a1')
    release('a1')
    await expect.poll(() => started).toEqual(['a1', 'a2'])
    expect(scheduler.active).toBe(1)
    expect(scheduler.queued).toBe(1)
  })
})
