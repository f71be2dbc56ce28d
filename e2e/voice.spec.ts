/**
 * Voice end to end: Chromium's fake microphone plays a WAV this spec generates with espeak-ng
 * (synthetic speech: PocketSphinx gets few words right, so only the transcript's presence is
 * checked, never its words).
 */
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { CHROMIUM_ARGS } from '../playwright.config'
import { E2E_PORT } from './server'
import { createOrganisation, signIn } from './sign-in'

const speech = path.join(os.tmpdir(), `lexdesk-e2e-speech-${E2E_PORT}.wav`)
const spokenWav = path.join(os.tmpdir(), `lexdesk-e2e-mic-${E2E_PORT}.wav`)
execFileSync('espeak-ng', [
  '-w',
  speech,
  'The tenant shall pay the rent on the first day of each month. The landlord keeps the building in good repair.',
])
execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', speech, '-ar', '48000', '-ac', '1', spokenWav])

test.use({
  permissions: ['microphone'],
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${spokenWav}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
})

/** Whether the audio element plays: it starts, its time advances, and it has no error. */
async function plays(page: Page, selector: string) {
  const audio = page.locator(selector).first()
  await audio.evaluate((element: HTMLAudioElement) => element.play())
  await expect
    .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime))
    .toBeGreaterThan(0.2)
  expect(await audio.evaluate((element: HTMLAudioElement) => element.error)).toBeNull()
}

test('a lawyer records a memo through the microphone and gets a transcript and its memo summary', async ({
  page,
}) => {
  // Ceilings for a hung job, not speed targets: with the machine's two cores shared by other
  // runs, PocketSphinx's few seconds of work can wait minutes for a pool slot.
  test.setTimeout(300_000)
  await signIn(page, `voice-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Marsh & Vale LLP')
  await page.getByRole('link', { name: 'Voice Assistant', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/[a-z0-9-]+\/voice$/)

  await expect(page.getByRole('region', { name: 'Recording consent' })).toBeVisible()
  await page.getByRole('button', { name: 'I will tell everyone I record' }).click()

  const mic = page.getByRole('button', { name: 'Start recording' })
  await mic.click()
  await expect(page.getByText('Recording started').first()).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Microphone level' })).toBeVisible()
  await expect(page.getByLabel('Elapsed time')).toHaveText('0:05', { timeout: 10_000 })
  await page.getByRole('button', { name: 'Stop recording' }).click()
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeDisabled()

  await expect(page.getByText('Transcribing audio...').first()).toBeVisible()
  await expect(page.getByText('Transcription complete!').first()).toBeVisible({ timeout: 180_000 })
  await expect(page.getByText('Analysis complete!').first()).toBeVisible({ timeout: 30_000 })
  // The panel shows the memo's own summary (key points, decisions, action items, names), not the
  // contract summariser's sentences: the one a reload shows under the recording.
  const panel = page.getByRole('region', { name: 'Analysis result' })
  await expect(panel.getByText('Memo summary')).toBeVisible()
  await expect(panel.getByRole('status')).toHaveText('Ready')
  const panelSummary = panel.getByRole('region', { name: /^Summary of Voice memo / })
  await expect(panelSummary).toBeVisible()
  const summaryShown = (await panelSummary.textContent()) ?? ''
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeEnabled()

  const recordings = page.getByRole('region', { name: 'Recordings' })
  await expect(recordings.getByRole('heading', { name: /^Voice memo / })).toBeVisible()
  const segments = recordings.getByRole('listitem')
  await expect(segments.first()).toBeVisible()
  expect((await segments.first().innerText()).trim()).not.toBe('')
  await plays(page, 'audio[aria-label^="Play Voice memo"]')
  await segments.last().getByRole('button').click()
  await expect(recordings.locator('button[aria-current="true"]')).toHaveCount(1)

  await page.reload()
  await expect(page.getByRole('region', { name: 'Analysis result' })).toHaveCount(0)
  const savedSummary = page
    .getByRole('region', { name: 'Recordings' })
    .getByRole('region', { name: /^Summary of Voice memo / })
  await expect(savedSummary).toHaveText(summaryShown)
})

test('Listen reads an analysis aloud and returns to Listen when it ends', async ({ page }) => {
  await page.goto('/demo')
  await page.getByRole('tab', { name: 'Document Analysis' }).click()
  await page
    .getByLabel('Document text')
    .fill('The Supplier may terminate this Agreement on ten days notice. Fees are due monthly.')
  await page.getByRole('button', { name: 'Analyze' }).click()
  const panel = page.getByRole('region', { name: 'Analysis result' })
  await expect(panel).toBeVisible()
  const listen = panel.getByRole('button', { name: 'Listen: analysis' })
  await listen.click()
  await expect(panel.getByRole('button', { name: 'Stop: analysis' })).toBeVisible()
  const audio = panel.getByTestId('listen-audio')
  expect(await audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(false)
  await expect(listen).toBeVisible({ timeout: 60_000 })
  expect(await audio.evaluate((element: HTMLAudioElement) => element.ended)).toBe(true)
})

test('the demo assistant hears a question, answers it and speaks; platform features link to sign-in', async ({
  page,
}) => {
  await page.goto('/demo')
  const start = page.getByRole('button', { name: 'Start' })
  await start.click()
  await expect(page.getByText('Listening…')).toBeVisible()
  await page.waitForTimeout(4000)
  await page.getByRole('button', { name: 'Stop' }).click()
  await expect(start).toBeDisabled()
  await expect(page.getByTestId('demo-transcript')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('demo-answer')).not.toBeEmpty()
  await expect(start).toBeEnabled({ timeout: 60_000 })

  await page.getByRole('tab', { name: 'Platform Features' }).click()
  await expect(page.getByText('Any AI output read aloud')).toBeVisible()
  await page
    .getByRole('tabpanel', { name: 'Platform Features' })
    .getByRole('link', { name: 'Sign In' })
    .click()
  await expect(page).toHaveURL(/\/auth$/)
})
