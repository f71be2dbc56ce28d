/**
 * Issue 29 (memory and leftovers): the real server, killed with SIGKILL while it transcribes a
 * recording, leaves the transcription's temporary folder in `<dataDir>/tmp`; started again on the
 * same data dir, it removes it.
 */
import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startChildServer, type ChildServer } from '../../test/child-server'
import { seededDataDir } from '../../test/seeded-data-dir'
import { freePort } from '../../test/free-port'
import { signedInHttpMember } from '../../test/http-member'
import { spokenWav } from '../../test/test-audio'

let dataDir: string
let server: ChildServer | undefined

beforeAll(async () => {
  dataDir = await seededDataDir('lexdesk-interrupted-')
})
afterAll(async () => {
  await server?.stop('SIGKILL')
  await rm(dataDir, { recursive: true, force: true })
})

/**
 * The work folders under <dataDir>/tmp, less the upload's own copy ('lexdesk-upload-…', removed
 * once the upload's checks are done, which may be just after its 202): only the transcription's.
 */
const tempFolders = async () =>
  (await readdir(path.join(dataDir, 'tmp')).catch(() => [] as string[])).filter(
    (name) => !name.startsWith('lexdesk-upload-'),
  )

describe('a server killed during a transcription', () => {
  it('removes the temporary folder the transcription left when it starts again', async () => {
    const port = await freePort()
    server = await startChildServer({ dataDir, port })
    const member = await signedInHttpMember(server, 'Leftover Firm')
    const base = `${server.origin}/api/v1/orgs/${member.orgId}`
    const consent = await fetch(`${base}/voice/consent`, {
      method: 'POST',
      headers: member.headers,
    })
    expect(consent.status).toBe(200)
    const form = new FormData()
    const long = await spokenWav(
      'The tenant shall pay the rent on the first day of each month.',
      40,
    )
    form.append('file', new Blob([long as Uint8Array<ArrayBuffer>]), 'memo.wav')
    const uploaded = await fetch(`${base}/recordings`, {
      method: 'POST',
      headers: member.headers,
      body: form,
    })
    expect(uploaded.status).toBe(202)

    // The transcription cuts the audio into piece files inside its folder under <dataDir>/tmp.
    let folders: string[] = []
    for (let i = 0; i < 600 && folders.length === 0; i++) {
      folders = await tempFolders()
      if (folders.length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(folders, 'no temporary folder appeared under <dataDir>/tmp').not.toEqual([])
    await server.stop('SIGKILL')
    // More folders may have appeared between the listing and the kill (the audio's own work
    // folder beside the blob copy): every one of them is a leftover.
    const leftovers = await tempFolders()
    expect(leftovers).toEqual(expect.arrayContaining(folders))

    server = await startChildServer({ dataDir, port })
    // The retried transcription may already work in a folder of its own (a new random name).
    const after = await tempFolders()
    expect(after.filter((name) => leftovers.includes(name))).toEqual([])
  }, 120_000)
})
