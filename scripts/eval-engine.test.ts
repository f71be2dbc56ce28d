import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import {
  fakeStructuredOpenAI,
  type FakeChatRequest,
  type FakeStructuredOpenAI,
} from '../server/test/fake-structured-openai'

const REPOSITORY_ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Two small terms-of-service passages with reference summaries (the legal_summarization layout). */
const SUMMARIES = {
  first: {
    original_text:
      'We may suspend your account at any time. You keep ownership of the content you upload. We do not sell your personal data.',
    reference_summary: 'They may suspend your account at any time.',
  },
  second: {
    original_text:
      'You must be 13 or older to use the service. Disputes go to binding arbitration. You waive class actions.',
    reference_summary: 'Disputes go to binding arbitration and you waive class actions.',
  },
}

/** The fake firm model: quotes the passage's first sentence and invents one more. */
function summarise(request: FakeChatRequest): string {
  const text = request.messages[1]?.content ?? ''
  return JSON.stringify({
    summary: [
      `${text.split('. ')[0] ?? ''}.`,
      'The provider promises never to change these terms.',
    ],
    dealSheet: { lines: [], attention: [] },
  })
}

let fake: FakeStructuredOpenAI | undefined
let dir: string | undefined
afterEach(async () => {
  await fake?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
  fake = undefined
  dir = undefined
})

/** Runs an eval script as `npm run` does, with only the given AI variables; never throws. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('AI_')),
  )
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: REPOSITORY_ROOT, env: { ...clean, NODE_ENV: 'test', ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('eval scripts --engine', () => {
  it('eval:summary --engine openai scores the configured model and names it in its JSON line', async () => {
    fake = await fakeStructuredOpenAI([summarise, summarise])
    dir = await mkdtemp(join(tmpdir(), 'eval-engine-'))
    const file = join(dir, 'summaries.json')
    await writeFile(file, JSON.stringify(SUMMARIES))
    const run = await runScript(
      'scripts/eval-summary.ts',
      ['--engine', 'openai', '--summaries', file],
      { AI_BASE_URL: fake.baseURL, AI_ANALYSIS_MODEL: 'firm-model', AI_API_KEY: 'k' },
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const line = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>
    expect(line).toMatchObject({
      engine: 'openai',
      model: 'firm-model',
      passages: 2,
      // The invented sentence of each passage was dropped.
      dropped_unverified: 2,
    })
    expect(line.rouge1_f1).toBeGreaterThan(0)
    expect(fake.requests.map((r) => [r.model, r.response_format?.type])).toEqual([
      ['firm-model', 'json_schema'],
      ['firm-model', 'json_schema'],
    ])
  })

  it('eval:cuad --engine openai scores the configured model on a CUAD-format set', async () => {
    const contract =
      'SUPPLY AGREEMENT\n\nThis Agreement is made between Acme Corp. ("Acme") and Beta LLC ("Beta").\n\nThis Agreement is governed by the laws of the State of New York.'
    const law = 'This Agreement is governed by the laws of the State of New York.'
    const noTerm = null
    fake = await fakeStructuredOpenAI([
      JSON.stringify({
        summary: [],
        dealSheet: { lines: [], attention: [] },
        clauses: [
          { category: 'Governing Law', quote: law, confidence: 0.9 },
          { category: 'Non-Compete', quote: 'Beta shall not compete with Acme.', confidence: 0.9 },
        ],
        keyTerms: {
          parties: [{ name: 'Acme Corp.', definedTerm: 'Acme', role: null, quote: 'Acme Corp.' }],
          agreementDate: noTerm,
          effectiveDate: noTerm,
          expirationDate: noTerm,
          governingLaw: { value: 'New York', quote: 'the laws of the State of New York' },
          renewalTerm: noTerm,
          noticePeriod: noTerm,
        },
        risks: [],
      }),
    ])
    dir = await mkdtemp(join(tmpdir(), 'eval-engine-'))
    await mkdir(join(dir, 'txt'))
    await writeFile(join(dir, 'txt', 'Supply Agreement.txt'), contract)
    await writeFile(
      join(dir, 'labels.csv'),
      `Filename,Governing Law,Governing Law-Answer\n"Supply Agreement.pdf","['${law}']",New York\n`,
    )
    const run = await runScript(
      'scripts/eval-cuad.ts',
      ['--engine', 'openai', '--contracts', join(dir, 'txt'), '--labels', join(dir, 'labels.csv')],
      { AI_BASE_URL: fake.baseURL, AI_CHAT_MODEL: 'firm-model' },
    )
    expect(run.code).toBe(0)
    const line = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>
    expect(line).toMatchObject({
      engine: 'openai',
      model: 'firm-model',
      contracts: 1,
      governing_law_accuracy: 1,
      clause_grounding: 1,
      // The invented non-compete was dropped.
      dropped_unverified: 1,
    })
    expect(fake.requests).toHaveLength(1)
  })

  it(
    'eval:nli --engine openai decides with the configured chat model',
    async () => {
      const clause =
        'The Receiving Party shall not disclose Confidential Information to any third party.'
      const text = `MUTUAL NON-DISCLOSURE AGREEMENT\n\n1. ${clause}\n\n2. This Agreement is governed by the laws of Delaware.`
      const start = text.indexOf(clause)
      fake = await fakeStructuredOpenAI([
        (request) => {
          const user = request.messages[1]?.content ?? ''
          const n = /<passage n="(\d+)"[^>]*>\n[^<]*shall not disclose/.exec(user)?.[1]
          return JSON.stringify({
            decision: 'no',
            deciding: n ? { passage: Number(n), quote: clause } : null,
            qualifications: [],
          })
        },
      ])
      dir = await mkdtemp(join(tmpdir(), 'eval-engine-'))
      const file = join(dir, 'nli.json')
      await writeFile(
        file,
        JSON.stringify({
          documents: [
            {
              id: 1,
              text,
              spans: [[start, start + clause.length]],
              annotation_sets: [
                { annotations: { 'nda-1': { choice: 'Contradiction', spans: [0] } } },
              ],
            },
          ],
          labels: {
            'nda-1': {
              hypothesis: 'Receiving Party may share confidential information with third parties.',
            },
          },
        }),
      )
      const run = await runScript('scripts/eval-nli.ts', ['--engine', 'openai', file], {
        AI_BASE_URL: fake.baseURL,
        AI_CHAT_MODEL: 'firm-chat',
      })
      expect(run.code).toBe(0)
      const line = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<
        string,
        unknown
      >
      expect(line).toMatchObject({
        engine: 'openai',
        model: 'firm-chat',
        dropped_unverified: 0,
        pairs: 1,
        accuracy: 1,
        evidence_recall: 1,
      })
      expect(fake.requests[0]?.response_format?.json_schema?.name).toBe('yes_no_decision')
    },
    // A child process that loads the local embedder and an in-memory database: slow on a busy
    // two-core machine.
    180_000,
  )

  it('refuses --engine openai without the model variable, naming it', async () => {
    const run = await runScript('scripts/eval-summary.ts', ['--engine', 'openai'], {
      AI_BASE_URL: 'http://127.0.0.1:9/v1',
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/openai analysis engine needs AI_ANALYSIS_MODEL or AI_CHAT_MODEL/)
    expect(run.stderr).toMatch(/usage: npm run eval:summary -- .*--engine local\|openai/)
  })

  it('refuses an unknown engine', async () => {
    const run = await runScript('scripts/eval-cuad.ts', ['--engine', 'gpt'], {})
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/--engine must be local or openai, not "gpt"/)
  })
})
