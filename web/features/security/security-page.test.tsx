import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import type { ApiKey } from './api-keys-api'
import { SecurityPage } from './security-page'

const KEYS = '/api/v1/orgs/org-1/api-keys'
const SECRET = 'ldk_AbCdEfsecretsecretsecretsecretsecretsecret0'

function apiKey(overrides: Partial<ApiKey>): ApiKey {
  return {
    id: crypto.randomUUID(),
    name: 'Intake form',
    prefix: 'ldk_AbCdEf',
    scopes: ['read', 'write'],
    appId: null,
    createdBy: 'u-1',
    createdAt: '2026-11-20T10:00:00.000Z',
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  }
}

/** A server holding `keys`: lists them, creates one (answering SECRET) and revokes. */
function stubKeys(keys: ApiKey[]) {
  return stubFetch({
    [`GET ${KEYS}`]: () => jsonResponse({ items: keys }),
    [`POST ${KEYS}`]: async (request) => {
      const body = (await request.json()) as { name: string; scopes: string }
      const created = apiKey({ name: body.name, scopes: body.scopes.split(',') })
      keys.unshift(created)
      return jsonResponse({ ...created, key: SECRET }, 201)
    },
    ...Object.fromEntries(
      keys.map((key) => [
        `DELETE ${KEYS}/${key.id}`,
        () => {
          key.revokedAt = new Date().toISOString()
          return new Response(null, { status: 204 })
        },
      ]),
    ),
  })
}

const renderPage = () => renderWithRouter({ element: inOrgScope(<SecurityPage />) })

describe('SecurityPage: API keys', () => {
  it('lists keys by prefix with their scopes, never a secret', async () => {
    stubKeys([apiKey({ name: 'Old', revokedAt: '2026-11-21T10:00:00Z' }), apiKey({})])
    renderPage()
    const table = await screen.findByRole('table')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Old',
      'Intake form',
    ])
    expect(within(rows[0] as HTMLElement).getByText('Revoked')).toBeInTheDocument()
    expect(within(rows[1] as HTMLElement).getByText('ldk_AbCdEf…')).toBeInTheDocument()
    expect(within(rows[1] as HTMLElement).getByText('read, write')).toBeInTheDocument()
  })

  it('creates a key with the typed scopes and shows its secret once, with a copy button', async () => {
    const user = userEvent.setup()
    const { requests } = stubKeys([])
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Create API key' }))
    // The page also holds the tenant-token form, which has a Scopes field of its own.
    const dialog = await screen.findByRole('dialog')
    await user.type(within(dialog).getByLabelText('Name'), 'Intake form')
    const scopes = within(dialog).getByLabelText('Scopes')
    expect(scopes).toHaveValue('read,write')
    await user.clear(scopes)
    await user.type(scopes, 'read')
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByText('API Key created')).toBeInTheDocument()
    expect(screen.getByDisplayValue(SECRET)).toBeInTheDocument()
    const sent = requests.find((r) => r.method === 'POST')
    expect(await sent?.json()).toEqual({ name: 'Intake form', scopes: 'read' })
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await navigator.clipboard.readText()).toBe(SECRET)
    await user.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull())
    expect(await screen.findByText('Intake form')).toBeInTheDocument()
    expect(document.body.textContent).not.toContain(SECRET)
  })

  it('says a key needs a name and sends nothing until it has one, trimmed', async () => {
    const user = userEvent.setup()
    const { requests } = stubKeys([])
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Create API key' }))
    const dialog = await screen.findByRole('dialog')
    const name = within(dialog).getByLabelText('Name')
    await user.type(name, '   ')
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }))
    expect(await within(dialog).findByText('Give the key a name.')).toBeInTheDocument()
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(requests.some((r) => r.method === 'POST')).toBe(false)
    await user.type(name, 'Intake form ')
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }))
    expect(await screen.findByText('API Key created')).toBeInTheDocument()
    const sent = requests.find((r) => r.method === 'POST')
    expect(await sent?.json()).toEqual({ name: 'Intake form', scopes: 'read,write' })
  })

  it('revokes a key after "Revoke this key?"', async () => {
    const user = userEvent.setup()
    const key = apiKey({})
    const { calls } = stubKeys([key])
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true)
    renderPage()
    const revoke = await screen.findByRole('button', { name: 'Revoke Intake form' })
    await user.click(revoke)
    expect(confirm).toHaveBeenCalledWith('Revoke this key?')
    expect(calls()).not.toContain(`DELETE ${KEYS}/${key.id}`)
    await user.click(revoke)
    expect(
      await screen.findByText('Revoked', { selector: '[data-sonner-toast] *' }),
    ).toBeInTheDocument()
    expect(calls()).toContain(`DELETE ${KEYS}/${key.id}`)
  })

  it('says Loading while the keys load', async () => {
    stubFetch({ [`GET ${KEYS}`]: () => new Promise<Response>(() => {}) })
    renderPage()
    expect(await screen.findByText('Loading API keys…')).toBeVisible()
    expect(screen.queryByText('No API keys yet.')).toBeNull()
  })

  it("asks a member's screen for no admin-only list, and says who manages keys and tokens", async () => {
    const { calls } = stubFetch({})
    renderWithRouter({ element: inOrgScope(<SecurityPage />, {}, 'member') })
    expect(await screen.findByText('Only owners and admins manage API keys.')).toBeVisible()
    expect(
      screen.getByText('Only owners and admins can mint, list and revoke tenant tokens.'),
    ).toBeVisible()
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull()
    expect(calls().filter((call) => /\/(api-keys|tokens)$/.test(call))).toEqual([])
  })

  it('tells someone whose role was lowered meanwhile (a 403) that only owners and admins manage keys', async () => {
    stubFetch({
      [`GET ${KEYS}`]: () =>
        new Response(
          JSON.stringify({ title: 'Forbidden', status: 403, detail: 'No', code: 'forbidden' }),
          { status: 403, headers: { 'content-type': 'application/problem+json' } },
        ),
    })
    renderPage()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and admins manage API keys.',
    )
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull()
  })
})
