import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { CurrentOrgProvider } from './current-org'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { RequireOrg } from './require-org'

const org = (id: string, name: string) => ({
  id,
  name,
  slug: name.toLowerCase(),
  createdAt: '2025-01-01T00:00:00.000Z',
  logo: null,
  metadata: null,
})

function serverWithOrgs(orgs: ReturnType<typeof org>[]) {
  return stubFetch((request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/api/auth/organization/list') return jsonResponse(orgs)
    const apps = pathname.match(/^\/api\/v1\/orgs\/([^/]+)\/apps$/)
    if (apps) return jsonResponse({ items: [] })
    return undefined
  })
}

function renderRequireOrg() {
  return renderWithRouter({
    element: (
      <CurrentOrgProvider>
        <RequireOrg>{({ orgId }) => <p>Data of {orgId}</p>}</RequireOrg>
      </CurrentOrgProvider>
    ),
  })
}

describe('RequireOrg', () => {
  it("prompts 'Select an organization' and offers to create one when the user has none", async () => {
    serverWithOrgs([])
    renderRequireOrg()

    expect(
      await screen.findByRole('heading', { name: 'Select an organization' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Organization name' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled()
    expect(screen.queryByText(/Data of/)).not.toBeInTheDocument()
  })

  it('renders its children with the first organisation (by name) when none is stored', async () => {
    serverWithOrgs([org('org-z', 'Zeta LLP'), org('org-a', 'Alpha & Co')])
    renderRequireOrg()

    expect(await screen.findByText('Data of org-a')).toBeInTheDocument()
    expect(screen.queryByText('Select an organization')).not.toBeInTheDocument()
  })

  it("renders its children with the stored organisation from 'lexdesk.currentOrgId'", async () => {
    serverWithOrgs([org('org-z', 'Zeta LLP'), org('org-a', 'Alpha & Co')])
    localStorage.setItem('lexdesk.currentOrgId', 'org-z')
    renderRequireOrg()

    expect(await screen.findByText('Data of org-z')).toBeInTheDocument()
  })
})
