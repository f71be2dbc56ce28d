import { describe, expect, it } from 'vitest'
import {
  testAppForFile,
  aliceAndMallory,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import type { Risk } from '../../ai/analyzer/types'

const t = await testAppForFile()
const { alice, mallory } = await aliceAndMallory(t)

const documentUrl = (m: TestMember, id: string) => `/api/v1/orgs/${m.orgId}/documents/${id}`

/**
 * SAMPLE_CONTRACT (Provider: Northwind; Client: Contoso) with a change-of-control clause either
 * party may invoke: the sample's own clause only lets the Provider assign in a merger, which is
 * not a change-of-control risk without a consequence (decision 0084).
 */
const CONTRACT = SAMPLE_CONTRACT.replace(
  '5. Indemnification.',
  '4A. Change of Control. Either party may terminate this Agreement upon written notice if the other party undergoes a change of control.\n\n5. Indemnification.',
)

/** A pasted copy of CONTRACT, analysed if asked. */
async function contract(m: TestMember, analysed = true): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/documents/text`,
    headers: m.headers,
    payload: { title: 'Northwind MSA', content: CONTRACT },
  })
  const id: string = res.json().id
  if (!analysed) return id
  const started = await t.app.inject({
    method: 'POST',
    url: `${documentUrl(m, id)}/analyses`,
    headers: m.headers,
    payload: { kind: 'full' },
  })
  expect((await finishedJob(t, m, started.json().id)).status).toBe('succeeded')
  return id
}

function setWeActFor(m: TestMember, id: string, weActFor: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: `${documentUrl(m, id)}/we-act-for`,
    headers: m.headers,
    payload: { weActFor },
  })
}

async function newestAnalysis(m: TestMember, id: string) {
  const res = await t.app.inject({ url: `${documentUrl(m, id)}/analyses`, headers: m.headers })
  expect(res.statusCode).toBe(200)
  return res.json().items[0] as { ourParty: string | null; result: { risks: Risk[] } }
}

const riskOf = (risks: Risk[], code: string) => risks.find((risk) => risk.code === code)

describe("'we act for' on a document", () => {
  it('names the party that bears each risk, or mutual, while nothing is chosen', async () => {
    const id = await contract(alice)
    const analysis = await newestAnalysis(alice, id)
    expect(analysis.ourParty).toBeNull()
    for (const risk of analysis.result.risks)
      expect(risk.whose?.label).toMatch(/^(Risk for|Mutual)/)
    expect(riskOf(analysis.result.risks, 'exclusivity')).toMatchObject({
      whose: { label: 'Risk for Contoso Legal LLP' },
      severity: 'medium',
    })
    expect(riskOf(analysis.result.risks, 'exclusivity')?.orientation).toBeUndefined()
    expect(riskOf(analysis.result.risks, 'change-of-control')?.whose?.label).toBe('Mutual')
  })

  it('stores a role, returns it with the document, and orients the risks to the party holding it', async () => {
    const id = await contract(alice)
    const res = await setWeActFor(alice, id, { kind: 'role', role: 'customer' })
    expect(res.statusCode).toBe(200)
    expect(res.json().weActFor).toEqual({ kind: 'role', role: 'customer' })
    const read = await t.app.inject({ url: documentUrl(alice, id), headers: alice.headers })
    expect(read.json().weActFor).toEqual({ kind: 'role', role: 'customer' })

    const analysis = await newestAnalysis(alice, id)
    // The contract's "Client" is the customer.
    expect(analysis.ourParty).toBe('Contoso Legal LLP')
    expect(riskOf(analysis.result.risks, 'non-compete')).toMatchObject({
      orientation: 'binds-us',
      severity: 'high',
      whose: { label: 'Our risk' },
    })
    expect(riskOf(analysis.result.risks, 'change-of-control')).toMatchObject({
      orientation: 'mutual',
      whose: { label: 'Mutual' },
    })
  })

  it('re-orients to the other side when the choice changes, and clears with null', async () => {
    const id = await contract(alice)
    // A party by its defined term is stored under its extracted name.
    const res = await setWeActFor(alice, id, { kind: 'party', party: 'Provider' })
    expect(res.json().weActFor).toEqual({ kind: 'party', party: 'Northwind Analytics, Inc.' })
    const theirs = await newestAnalysis(alice, id)
    expect(theirs.ourParty).toBe('Northwind Analytics, Inc.')
    const nonCompete = riskOf(theirs.result.risks, 'non-compete')
    expect(nonCompete).toMatchObject({ orientation: 'binds-them', severity: 'low' })
    expect(nonCompete?.whose).toMatchObject({ label: 'Their risk' })
    expect(nonCompete?.whose?.reason).toContain('Contoso Legal LLP')

    expect((await setWeActFor(alice, id, null)).json().weActFor).toBeNull()
    const neutral = await newestAnalysis(alice, id)
    expect(neutral.ourParty).toBeNull()
    expect(riskOf(neutral.result.risks, 'non-compete')).toMatchObject({
      severity: 'high',
      whose: { label: 'Risk for Contoso Legal LLP' },
    })
  })

  it('refuses a party the analysis did not extract with a 400 problem and keeps the choice', async () => {
    const id = await contract(alice)
    await setWeActFor(alice, id, { kind: 'role', role: 'customer' })
    const res = await setWeActFor(alice, id, { kind: 'party', party: 'Globex Corporation' })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'unknown_party' })
    expect(res.json().detail).toContain('Northwind Analytics, Inc.')
    const role = await setWeActFor(alice, id, { kind: 'role', role: 'employee' })
    expect(role.statusCode).toBe(400)
    expect(role.json()).toMatchObject({ code: 'unknown_party' })
    const read = await t.app.inject({ url: documentUrl(alice, id), headers: alice.headers })
    expect(read.json().weActFor).toEqual({ kind: 'role', role: 'customer' })
  })

  it('refuses a role it does not know and a document without analysed parties (400 problems)', async () => {
    const unanalysed = await contract(alice, false)
    const before = await setWeActFor(alice, unanalysed, { kind: 'party', party: 'Contoso' })
    expect(before.statusCode).toBe(400)
    expect(before.json()).toMatchObject({ code: 'unknown_party' })
    const id = await contract(alice)
    const res = await setWeActFor(alice, id, { kind: 'role', role: 'astronaut' })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it("hides another org's document behind a 404 problem and changes nothing", async () => {
    const id = await contract(alice)
    const res = await setWeActFor(mallory, id, { kind: 'role', role: 'customer' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    const cross = await t.app.inject({
      method: 'PUT',
      url: `${documentUrl(alice, id)}/we-act-for`,
      headers: mallory.headers,
      payload: { weActFor: { kind: 'role', role: 'customer' } },
    })
    expect(cross.statusCode).toBe(404)
    const read = await t.app.inject({ url: documentUrl(alice, id), headers: alice.headers })
    expect(read.json().weActFor).toBeNull()
  })

  it('lets a member change only the documents they added (403), as renaming', async () => {
    const id = await contract(alice)
    const bob = await signedInWithRole(t, alice.orgId, 'member')
    const res = await setWeActFor(bob, id, { kind: 'role', role: 'customer' })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'not_document_creator' })
  })
})
