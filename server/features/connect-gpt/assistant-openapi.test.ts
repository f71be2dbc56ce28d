import { validate, compileErrors } from '@readme/openapi-parser'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, TEST_ORIGIN } from '../../test/test-app'
import {
  ASSISTANT_OPERATIONS,
  assistantOpenApi,
  MAX_DESCRIPTION_CHARS,
  type OpenApiDocument,
} from './assistant-openapi'

/** The sign-in helpers send this origin, so the app's PUBLIC_URL must be it. */
const PUBLIC_URL = TEST_ORIGIN
const t = await buildTestApp({ publicUrl: PUBLIC_URL })
afterAll(() => t.close())

const owner = await signedInMember(t, 'OpenAPI Firm')

async function download() {
  return t.app.inject({
    url: `/api/v1/orgs/${owner.orgId}/connect-gpt/openapi.json`,
    headers: owner.headers,
  })
}

type Operation = {
  operationId?: string
  description?: string
  parameters?: { name: string; in: string }[]
}

function operationsOf(document: OpenApiDocument): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.values(methods).map((op) => [path, op as Operation] as [string, Operation]),
  )
}

describe("the assistants' OpenAPI file", () => {
  it('downloads as an attachment and is valid OpenAPI 3.1', async () => {
    const res = await download()
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="lexdesk-assistant-openapi\.json"/,
    )
    const document = JSON.parse(res.body) as OpenApiDocument
    expect(document.openapi).toMatch(/^3\.1\./)
    const result = await validate(
      structuredClone(document) as unknown as Parameters<typeof validate>[0],
    )
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
  })

  it('holds exactly the assistant operations, each with an operationId and a short description', async () => {
    const document = JSON.parse((await download()).body) as OpenApiDocument
    const operations = operationsOf(document)
    expect(operations.map(([, op]) => op.operationId).sort()).toEqual(
      Object.keys(ASSISTANT_OPERATIONS).sort(),
    )
    for (const [, op] of operations) {
      expect(op.description?.length, op.operationId).toBeGreaterThan(20)
      expect(op.description?.length, op.operationId).toBeLessThan(MAX_DESCRIPTION_CHARS)
    }
  })

  it("names PUBLIC_URL as its server, a bearer scheme, and the organisation's own paths", async () => {
    const document = JSON.parse((await download()).body) as OpenApiDocument
    expect(document.servers).toEqual([{ url: PUBLIC_URL }])
    const schemes = (document.components?.securitySchemes ?? {}) as Record<string, unknown>
    const [name, scheme] = Object.entries(schemes)[0] ?? []
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(document.security).toEqual([{ [String(name)]: [] }])
    for (const [path, op] of operationsOf(document)) {
      expect(path.startsWith(`/api/v1/orgs/${owner.orgId}/`), path).toBe(true)
      expect(op.parameters?.some((p) => p.name === 'orgId') ?? false).toBe(false)
    }
  })

  it('is cut from the routes: a route schema of the API shows through unchanged', async () => {
    const full = (await t.app.inject({ url: '/api/openapi.json' })).json() as OpenApiDocument
    const document = JSON.parse((await download()).body) as OpenApiDocument
    const path = `/api/v1/orgs/${owner.orgId}/entities`
    expect(document.paths[path]?.post?.requestBody).toEqual(
      full.paths['/api/v1/orgs/{orgId}/entities']?.post?.requestBody,
    )
  })

  it('refuses to leave out an operation the API no longer has', async () => {
    const full = (await t.app.inject({ url: '/api/openapi.json' })).json() as OpenApiDocument
    const { ['/api/v1/orgs/{orgId}/rpc/log_gpt_action']: _gone, ...paths } = full.paths
    expect(() =>
      assistantOpenApi({ ...full, paths }, { orgId: owner.orgId, publicUrl: PUBLIC_URL }),
    ).toThrow(/logGptAction/)
  })
})
