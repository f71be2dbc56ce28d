/**
 * Lighthouse 13 (the line that needs Node 22+; decision 0118) in Debian's chromium against the
 * real server serving a given build of the web app (WEB_ROOT): the landing page signed out and
 * the documents screen signed in (a fresh owner's session cookie sent as a header). Lighthouse runs
 * with its desktop preset (no CPU slowdown, simulated desktop network), each page in a fresh
 * headless chromium, one after the other.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { startChildServer } from '../server/test/child-server'
import { signedInHttpMember } from '../server/test/http-member'

/**
 * One page's scores (0-100) and timings (ms); `failing` names, per category, the audits that
 * scored below 1 (what to look at when a score falls short).
 */
export interface LighthouseFigures {
  performance: number
  accessibility: number
  lcpMs: number
  tbtMs: number
  failing: { performance: string[]; accessibility: string[] }
}

/** The same chromium the Playwright suite uses (playwright.config.ts). */
const CHROMIUM = '/usr/bin/chromium'

async function audit(url: string, headers: Record<string, string>): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  })
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        extraHeaders: headers,
      },
      desktopConfig,
    )
    const lhr = result?.lhr
    if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`)
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`)
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
    const failing = (category: string) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .map((ref) => lhr.audits[ref.id])
        .filter((a) => typeof a?.score === 'number' && a.score < 1)
        .map((a) => a?.id ?? '')
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      failing: { performance: failing('performance'), accessibility: failing('accessibility') },
    }
  } finally {
    chrome.kill()
  }
}

/**
 * Starts the server on `port` with a fresh data dir serving `webRoot`, signs an owner in, and
 * audits `/` (no cookie) and `/dashboard/<their org>/documents` (their cookie).
 * Throws when the server does not start or Lighthouse fails to load a page.
 */
export async function lighthousePages(
  webRoot: string,
  port: number,
): Promise<{ landing: LighthouseFigures; documents: LighthouseFigures }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-lighthouse-'))
  const server = await startChildServer({
    dataDir,
    port,
    readyTimeoutMs: 180_000,
    env: { WEB_ROOT: webRoot },
  })
  try {
    const owner = await signedInHttpMember(server, 'Lighthouse Firm')
    const orgs = await fetch(`${server.origin}/api/auth/organization/list`, {
      headers: owner.headers,
    })
    const slug = ((await orgs.json()) as { id: string; slug: string }[]).find(
      (o) => o.id === owner.orgId,
    )?.slug
    if (!slug) throw new Error('the new owner has no organisation slug')
    const landing = await audit(`${server.origin}/`, {})
    const documents = await audit(`${server.origin}/dashboard/${slug}/documents`, {
      cookie: owner.headers.cookie,
    })
    return { landing, documents }
  } finally {
    await server.stop('SIGTERM')
    await rm(dataDir, { recursive: true, force: true })
  }
}
