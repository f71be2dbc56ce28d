import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { ConnectGptPage } from './connect-gpt-page'
import { PROVIDER_NOTICE } from './external-assistants-switch'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}`

const OPENAPI = {
  openapi: '3.1.0',
  servers: [{ url: 'https://lexdesk.firm.example' }],
  paths: {
    [`${BASE}/entities`]: {
      get: { operationId: 'listEntities', description: "Lists the firm's entities." },
    },
    [`${BASE}/rpc/log_gpt_action`]: {
      post: { operationId: 'logGptAction', description: 'Records what you did.' },
    },
  },
}

function stubServer(canChange: boolean) {
  let enabled = false
  return stubFetch({
    [`GET ${BASE}/external-assistants`]: () =>
      jsonResponse({ enabled, updatedAt: null, updatedBy: null, canChange }),
    [`PUT ${BASE}/external-assistants`]: async (request) => {
      enabled = ((await request.json()) as { enabled: boolean }).enabled
      return jsonResponse({
        enabled,
        updatedAt: new Date().toISOString(),
        updatedBy: 'u',
        canChange,
      })
    },
    [`GET ${BASE}/connect-gpt/openapi.json`]: () => jsonResponse(OPENAPI),
  })
}

function renderPage() {
  return renderWithRouter({ element: inOrgScope(<ConnectGptPage />, { orgId: ORG }) })
}

describe('ConnectGptPage', () => {
  it('shows the organisation id, the project reference, the download and the endpoints of the file', async () => {
    stubServer(false)
    renderPage()
    expect(screen.getByText(ORG)).toBeInTheDocument()
    expect(await screen.findByText('https://lexdesk.firm.example')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download OpenAPI file' })).toHaveAttribute(
      'href',
      `${BASE}/connect-gpt/openapi.json`,
    )
    expect(screen.getByText('(logGptAction)')).toBeInTheDocument()
    expect(screen.getByText('Records what you did.')).toBeInTheDocument()
    expect(screen.getByText('https://lexdesk.firm.example/mcp')).toBeInTheDocument()
  })

  it('lets an owner turn assistants on only after confirming the provider notice', async () => {
    const user = userEvent.setup()
    const { calls } = stubServer(true)
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Turn on external assistants' }))
    expect(screen.getByRole('dialog')).toHaveTextContent(PROVIDER_NOTICE)
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(calls()).not.toContain(`PUT ${BASE}/external-assistants`)

    await user.click(screen.getByRole('button', { name: 'Turn on external assistants' }))
    await user.click(screen.getByRole('button', { name: 'I understand, turn on' }))
    expect(
      await screen.findByRole('button', { name: 'Turn off external assistants' }),
    ).toBeVisible()
    expect(calls()).toContain(`PUT ${BASE}/external-assistants`)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it("does not tell anyone 'Only an owner can change this.' while the switch loads", async () => {
    stubFetch({
      [`GET ${BASE}/external-assistants`]: () => new Promise<Response>(() => {}),
      [`GET ${BASE}/connect-gpt/openapi.json`]: () => jsonResponse(OPENAPI),
    })
    renderPage()
    expect(await screen.findByText('Loading…')).toBeInTheDocument()
    expect(screen.queryByText('Only an owner can change this.')).toBeNull()
  })

  it('tells a member who is not an owner that only an owner can change it', async () => {
    stubServer(false)
    renderPage()
    expect(await screen.findByText('Only an owner can change this.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Turn on/ })).toBeNull()
  })
})
