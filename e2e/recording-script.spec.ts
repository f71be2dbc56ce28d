/**
 * Issue 29, point 1: a recording's audio link never runs script on Lexdesk's origin. A member
 * uploads, through the API, the review's pair (a script that ffmpeg decodes as MP3, labelled
 * text/javascript, and an HTML page loading it, labelled text/html) and a real MP3 whose ID3 tag
 * holds an inline script, labelled text/html; a colleague then opens every audio link that was
 * accepted. No dialog may open and the page's title may never become the script's marker.
 */
import { expect, test, type APIResponse } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, signIn } from './sign-in'
import {
  htmlPolyglot,
  mp3WithScriptTag,
  scriptPolyglot,
  spokenMp3,
  XSS_MARKER,
} from '../server/test/hostile-audio'

test('opening the audio link of a hostile upload runs no script', async ({ page }) => {
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await signIn(page, `polyglot-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Polyglot Test LLP')
  const session = (await (await page.request.get('/api/auth/get-session')).json()) as {
    session: { activeOrganizationId: string }
  }
  const api = `/api/v1/orgs/${session.session.activeOrganizationId}`
  const headers = { origin: E2E_BASE_URL }
  expect((await page.request.post(`${api}/voice/consent`, { headers })).status()).toBe(200)

  const upload = (buffer: Buffer, mimeType: string, name: string) =>
    page.request.post(`${api}/recordings`, {
      headers,
      multipart: { file: { name, mimeType, buffer } },
    })
  const audioLink = async (res: APIResponse) =>
    `${api}/recordings/${((await res.json()) as { recording: { id: string } }).recording.id}/audio`

  const mp3 = await spokenMp3()
  const script = await upload(scriptPolyglot(mp3), 'text/javascript', 'player.js')
  const scriptUrl = script.status() === 202 ? await audioLink(script) : `${api}/recordings/x/audio`
  const html = await upload(htmlPolyglot(scriptUrl, mp3), 'text/html', 'memo.html')
  const tagged = await upload(await mp3WithScriptTag(), 'text/html', 'memo2.html')
  const accepted = [script, html, tagged].filter((res) => res.status() === 202)

  for (const res of accepted) {
    await page.goto(await audioLink(res))
    expect(await page.title()).not.toBe(XSS_MARKER)
    expect(dialogs).toEqual([])
  }
  // The pair is not audio of an allowed format; the tagged MP3 is, and is kept as audio.
  expect(script.status()).toBe(400)
  expect(html.status()).toBe(400)
  expect(tagged.status()).toBe(202)
  const served = await page.request.get(await audioLink(tagged))
  expect(served.headers()['content-type']).toBe('audio/mpeg')
})
