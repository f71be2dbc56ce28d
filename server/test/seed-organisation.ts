/**
 * Fills `m`'s organisation with one of everything an archive carries that tests compare (issue
 * 27's round trip and clone): a document with its passages and a risks analysis, an entity, a
 * storage bucket with one object. Resolves when the analysis has ended.
 */
import { expect } from 'vitest'
import type { TestApp, TestMember } from './test-app'
import { uploadDocument } from './document-uploads'
import { SAMPLE_CONTRACT, uploadForm } from './sample-files'
import { finishedJob } from './finished-job'

export async function seedOrganisation(t: TestApp, m: TestMember): Promise<void> {
  const url = (rest: string) => `/api/v1/orgs/${m.orgId}${rest}`
  const doc = await uploadDocument(t, m, new TextEncoder().encode(SAMPLE_CONTRACT), 'nda.txt')
  expect(doc.statusCode, doc.body).toBe(201)
  const analysis = await t.app.inject({
    method: 'POST',
    url: url(`/documents/${doc.json().id as string}/analyses`),
    headers: m.headers,
    payload: { kind: 'risks' },
  })
  if (analysis.statusCode === 202) await finishedJob(t, m, analysis.json().id)
  const entity = await t.app.inject({
    method: 'POST',
    url: url('/entities'),
    headers: m.headers,
    payload: { name: 'Client A', type: 'client', data: { tier: 'gold' } },
  })
  expect(entity.statusCode, entity.body).toBe(201)
  const bucket = await t.app.inject({
    method: 'POST',
    url: url('/storage/buckets'),
    headers: m.headers,
    payload: { name: 'papers' },
  })
  expect(bucket.statusCode, bucket.body).toBe(201)
  const object = await t.app.inject({
    method: 'POST',
    url: url(`/storage/buckets/${bucket.json().id as string}/objects`),
    headers: m.headers,
    payload: uploadForm(new TextEncoder().encode('minutes'), 'minutes.txt'),
  })
  expect(object.statusCode, object.body).toBe(201)
}
