import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { setRouteQueryClient } from './app/route-query-client'
import { renderWithRouter, testQueryClient } from './test/render-with-router'
import { resetAuthSession } from './test/reset-auth-session'
import { makeJob } from './test/make-job'
import { jsonResponse, stubFetch, type FetchHandler } from './test/stub-fetch'
import { makeDocumentCard, makeDocumentDetail } from './test/document-factories'
import { routes } from './router'

const session = {
  session: {
    id: 'sess-1',
    userId: 'user-1',
    token: 't',
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
  user: {
    id: 'user-1',
    email: 'ada@lovelace.law',
    name: '',
    emailVerified: true,
    image: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
}

const ORGS = [
  { id: 'org-b', name: 'Beta LLP', slug: 'beta-llp-x2', createdAt: '2025-01-01T00:00:00.000Z' },
  { id: 'org-a', name: 'Alpha & Co', slug: 'alpha-co-k3', createdAt: '2025-01-01T00:00:00.000Z' },
]
const APPS: Record<string, { id: string; slug: string }[]> = {
  'org-a': [{ id: 'app-lit', slug: 'litigation' }],
  'org-b': [{ id: 'app-tax', slug: 'tax' }],
}

/**
 * A signed-in (or not) user who belongs to `orgs`; answers sign-out too, and any other request
 * `more` answers (404 problem when it returns undefined).
 */
function server({
  signedIn = true,
  orgs = ORGS,
  more = (): Response | undefined => undefined,
}: { signedIn?: boolean; orgs?: typeof ORGS; more?: FetchHandler } = {}) {
  let current = signedIn
  const stub = stubFetch((request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/api/auth/get-session') return jsonResponse(current ? session : null)
    if (pathname === '/api/auth/sign-out') {
      current = false
      return jsonResponse({ success: true })
    }
    if (pathname === '/api/auth/organization/list') return jsonResponse(orgs)
    if (pathname === '/api/auth/organization/get-active-member-role')
      return jsonResponse({ role: 'owner' })
    const apps = /^\/api\/v1\/orgs\/([^/]+)\/apps$/.exec(pathname)?.[1]
    if (apps) {
      const items = (APPS[apps] ?? []).map((a) => ({
        ...a,
        orgId: apps,
        createdAt: '2025-01-01T00:00:00.000Z',
      }))
      return jsonResponse({ items })
    }
    return more(request)
  })
  resetAuthSession()
  return stub
}

const renderAt = (initialPath: string) => renderWithRouter({ routes, initialPath })

const locationOf = (router: ReturnType<typeof renderAt>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`

const sidebarLinks = () =>
  within(screen.getByRole('navigation', { name: 'Dashboard navigation' }))
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')])

async function choose(selectName: string, optionName: string) {
  const user = userEvent.setup()
  await user.click(screen.getByRole('combobox', { name: selectName }))
  await user.click(await screen.findByRole('option', { name: optionName }))
}

describe('dashboard routes: the organisation in the URL', () => {
  beforeEach(() => {
    // jsdom lacks the pointer-capture and scroll APIs Radix Select calls.
    Element.prototype.hasPointerCapture ??= vi.fn(() => false)
    Element.prototype.releasePointerCapture ??= vi.fn()
    Element.prototype.scrollIntoView ??= vi.fn()
    // ScrollRestoration (in the root layout) scrolls on navigation; jsdom has no scrolling.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
  })

  it('sends a signed-out visitor of an organisation URL to /auth', async () => {
    server({ signedIn: false })
    const { router } = renderAt('/dashboard/beta-llp-x2/documents')
    expect(await screen.findByText(/Sign in/i, { selector: 'h1, h2' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/auth')
  })

  it("links every screen in the URL's organisation and app, and marks the open one", async () => {
    server()
    renderAt('/dashboard/beta-llp-x2/sql?app=tax')

    expect(await screen.findByRole('heading', { name: 'SQL Runner' })).toBeInTheDocument()
    expect(screen.getByText('ada@lovelace.law')).toBeInTheDocument()
    const base = '/dashboard/beta-llp-x2'
    expect(sidebarLinks()).toEqual([
      ['Lexdesk', `${base}?app=tax`],
      ['Dashboard', `${base}?app=tax`],
      ['Documents', `${base}/documents?app=tax`],
      ['Reviews', `${base}/reviews?app=tax`],
      ['Comparisons', `${base}/comparisons?app=tax`],
      ['Playbooks', `${base}/playbooks?app=tax`],
      ['Voice Assistant', `${base}/voice?app=tax`],
      ['Analytics', `${base}/analytics?app=tax`],
      ['Entities', `${base}/entities?app=tax`],
      ['Conversations', `${base}/conversations?app=tax`],
      ['Events', `${base}/events?app=tax`],
      ['Jobs', `${base}/jobs?app=tax`],
      ['Vector Store', `${base}/vector?app=tax`],
      ['Members', `${base}/members?app=tax`],
      ['Security', `${base}/security?app=tax`],
      ['Storage', `${base}/storage?app=tax`],
      ['SQL Runner', `${base}/sql?app=tax`],
      ['Connect GPT', `${base}/connect-gpt?app=tax`],
      ['Settings', `${base}/settings?app=tax`],
    ])
    expect(screen.getByRole('link', { name: 'SQL Runner' })).toHaveAttribute('aria-current', 'page')
    expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveTextContent('Beta LLP')
    expect(screen.getByRole('combobox', { name: 'App' })).toHaveTextContent('tax')
  })

  it('takes the organisation from the URL, not from the organisation last used', async () => {
    localStorage.setItem('lexdesk.lastOrgSlug', 'alpha-co-k3')
    server()
    renderAt('/dashboard/beta-llp-x2/sql')

    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveTextContent('Beta LLP'),
    )
    expect(screen.getByRole('link', { name: 'Documents' })).toHaveAttribute(
      'href',
      '/dashboard/beta-llp-x2/documents',
    )
    // Opening it makes it the hint for old links; the URL stays the truth for this tab.
    await waitFor(() => expect(localStorage.getItem('lexdesk.lastOrgSlug')).toBe('beta-llp-x2'))
  })

  it('redirects an old link to the same screen and parameters in the organisation last used', async () => {
    localStorage.setItem('lexdesk.lastOrgSlug', 'beta-llp-x2')
    server()
    const { router } = renderAt('/dashboard/sql?document=d1&start=5&end=18')

    expect(await screen.findByRole('heading', { name: 'SQL Runner' })).toBeInTheDocument()
    expect(locationOf(router)).toBe('/dashboard/beta-llp-x2/sql?document=d1&start=5&end=18')
  })

  it('redirects /dashboard to the first organisation by name when the last one used is not theirs', async () => {
    localStorage.setItem('lexdesk.lastOrgSlug', 'someone-elses-firm')
    server()
    const { router } = renderAt('/dashboard')

    await waitFor(() => expect(locationOf(router)).toBe('/dashboard/alpha-co-k3'))
  })

  it("offers 'Create your organization' at /dashboard to a user without one", async () => {
    server({ orgs: [] })
    const { router } = renderAt('/dashboard')

    expect(await screen.findByText('Create your organization')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Organization name' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard')
  })

  it("shows 'Organization not found' with links to the user's organisations for an unknown slug", async () => {
    server()
    renderAt('/dashboard/no-such-firm/documents')

    expect(await screen.findByText('Organization not found')).toBeInTheDocument()
    expect(screen.getByText(/not a member of an organization 'no-such-firm'/)).toBeInTheDocument()
    const list = screen.getByRole('list', { name: 'Your organizations' })
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Alpha & Co', '/dashboard/alpha-co-k3'],
      ['Beta LLP', '/dashboard/beta-llp-x2'],
    ])
    expect(screen.queryByRole('heading', { name: 'Documents' })).not.toBeInTheDocument()
  })

  it("shows 'App not found' for an app the organisation does not have", async () => {
    server()
    renderAt('/dashboard/alpha-co-k3/sql?app=tax')

    expect(await screen.findByText('App not found')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open all apps of Alpha & Co' })).toHaveAttribute(
      'href',
      '/dashboard/alpha-co-k3',
    )
  })

  it('switching organisation or app opens the same screen in the chosen scope', async () => {
    server()
    const { router } = renderAt('/dashboard/alpha-co-k3/sql')
    await screen.findByRole('heading', { name: 'SQL Runner' })

    await choose('App', 'litigation')
    await waitFor(() =>
      expect(locationOf(router)).toBe('/dashboard/alpha-co-k3/sql?app=litigation'),
    )

    await choose('Organization', 'Beta LLP')
    await waitFor(() => expect(locationOf(router)).toBe('/dashboard/beta-llp-x2/sql'))
    expect(screen.getByRole('combobox', { name: 'App' })).toHaveTextContent('All apps')
  })

  it('starts the storage screen afresh in the organisation switched to: no bucket of the last one', async () => {
    const bucket = {
      id: '0b0c0000-0000-4000-8000-000000000001',
      name: 'alpha-contracts',
      public: false,
      readOnly: false,
      createdBy: 'user-1',
      createdAt: '2025-01-01T00:00:00.000Z',
    }
    const calls = server({
      more: (request) => {
        const { pathname } = new URL(request.url)
        if (pathname === '/api/v1/orgs/org-a/storage/buckets')
          return jsonResponse({ items: [bucket] })
        if (pathname === '/api/v1/orgs/org-b/storage/buckets') return jsonResponse({ items: [] })
        if (pathname.endsWith('/objects')) return jsonResponse({ items: [], nextCursor: null })
        return undefined
      },
    })
    renderAt('/dashboard/alpha-co-k3/storage')
    await screen.findByRole('option', { name: 'alpha-contracts' })
    await userEvent.selectOptions(screen.getByLabelText('Bucket'), bucket.id)
    expect(await screen.findByText('No files here yet.')).toBeInTheDocument()

    await choose('Organization', 'Beta LLP')

    expect(await screen.findByText('Pick a bucket to see its files.')).toBeInTheDocument()
    expect(screen.getByLabelText('Bucket')).toHaveValue('')
    expect(calls.calls()).not.toContain(
      `GET /api/v1/orgs/org-b/storage/buckets/${bucket.id}/objects`,
    )
  })

  it('never shows a token minted in one organisation on the security screen of another', async () => {
    const segment = (value: object) =>
      btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    const claims = { org_id: 'org-a', sub: 'user-1', scope: 'read write', exp: 1_795_000_600 }
    const token = `ldt_${segment({ alg: 'HS256', typ: 'JWT' })}.${segment(claims)}.c2ln`
    server({
      more: (request) => {
        const { pathname } = new URL(request.url)
        if (pathname === '/api/v1/orgs/org-a/tokens' && request.method === 'POST')
          return jsonResponse({ token, claims }, 201)
        if (pathname.endsWith('/tokens') || pathname.endsWith('/api-keys'))
          return jsonResponse({ items: [], total: 0 })
        return undefined
      },
    })
    renderAt('/dashboard/alpha-co-k3/security')
    await userEvent.click(await screen.findByRole('button', { name: 'Mint token' }))
    expect(await screen.findByTestId('minted-token')).toHaveTextContent(token)

    await choose('Organization', 'Beta LLP')

    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveTextContent('Beta LLP'),
    )
    expect(await screen.findByRole('button', { name: 'Mint token' })).toBeInTheDocument()
    expect(screen.queryByTestId('minted-token')).not.toBeInTheDocument()
  })

  it('starts the data-management screen afresh in the organisation switched to', async () => {
    server({
      more: (request) =>
        new URL(request.url).pathname.includes('/jobs') ? jsonResponse({ items: [] }) : undefined,
    })
    renderAt('/dashboard/alpha-co-k3/settings')
    const importForm = await screen.findByRole('form', { name: 'Import' })
    await userEvent.click(within(importForm).getByRole('button', { name: /Import/ }))
    expect(await within(importForm).findByText('Select a ZIP file')).toBeInTheDocument()

    await choose('Organization', 'Beta LLP')

    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveTextContent('Beta LLP'),
    )
    expect(screen.queryByText('Select a ZIP file')).not.toBeInTheDocument()
  })

  it("signs out with 'Signed out successfully' and goes to /", async () => {
    const calls = server()
    const { router } = renderAt('/dashboard/alpha-co-k3/sql')

    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }))

    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(calls.calls()).toContain('POST /api/auth/sign-out')
  })
})

describe('route loaders', () => {
  afterEach(() => setRouteQueryClient(null))

  it("opens a screen at once on 'Loading…' while its first list is asked, and asks it once", async () => {
    let answer: (response: Response) => void = () => {}
    const events = new Promise<Response>((resolve) => (answer = resolve))
    const calls = server({
      more: (request) =>
        new URL(request.url).pathname === '/api/v1/orgs/org-a/events' ? events : undefined,
    })
    const queryClient = testQueryClient()
    setRouteQueryClient(queryClient)
    renderWithRouter({ routes, initialPath: '/dashboard/alpha-co-k3/events', queryClient })

    // The screen shows while its list is still asked for, saying it is loading…
    expect(await screen.findByRole('heading', { name: 'Events' })).toBeVisible()
    expect(screen.getByText('Loading…')).toBeVisible()
    expect(queryClient.isFetching({ queryKey: ['orgs', 'org-a', 'events'] })).toBe(1)
    answer(
      jsonResponse({
        items: [
          { id: 7, kind: 'document.uploaded', meta: {}, createdAt: '2025-01-02T00:00:00.000Z' },
        ],
        total: 1,
        kinds: ['document.uploaded'],
      }),
    )
    // …then its rows, from the one request the loader and the screen share.
    expect(await screen.findByRole('cell', { name: 'document.uploaded' })).toBeVisible()
    expect(screen.queryByText('Loading…')).toBeNull()
    expect(calls.calls().filter((call) => call === 'GET /api/v1/orgs/org-a/events')).toHaveLength(1)
  })
  it('opens the documents screen at once, asking for its library and the linked document together', async () => {
    let answer: () => void = () => {}
    const held = new Promise<void>((resolve) => (answer = resolve))
    const card = makeDocumentCard({ id: 'doc-1', title: 'Acme NDA' })
    server({
      more: async (request) => {
        const { pathname } = new URL(request.url)
        if (pathname === '/api/v1/orgs/org-a/documents') {
          await held
          return jsonResponse({ items: [card], total: 1, types: ['nda'] })
        }
        if (pathname === '/api/v1/orgs/org-a/documents/doc-1') {
          await held
          return jsonResponse(makeDocumentDetail('The parties agree to keep secrets.'))
        }
        return pathname.includes('/jobs') ? jsonResponse({ items: [] }) : undefined
      },
    })
    const queryClient = testQueryClient()
    setRouteQueryClient(queryClient)
    renderWithRouter({
      routes,
      initialPath: '/dashboard/alpha-co-k3/documents?document=doc-1',
      queryClient,
    })

    // The screen opens while the loader's requests for the library and the document run…
    expect(await screen.findByRole('searchbox', { name: 'Search documents' })).toBeVisible()
    await expect
      .poll(() => queryClient.isFetching({ queryKey: ['orgs', 'org-a', 'documents'] }))
      .toBe(2)
    answer()
    // …and shows the cards once they answer.
    const library = await screen.findByRole('list', { name: 'Documents' })
    expect(within(library).getByRole('button', { name: 'Acme NDA' })).toBeVisible()
    expect(queryClient.getQueryData(['orgs', 'org-a', 'documents', 'doc-1'])).toMatchObject({
      title: 'Acme NDA',
    })
  })
})

describe('route loaders of the screens moved by decision 0128', () => {
  afterEach(() => setRouteQueryClient(null))

  /**
   * Each screen: its path, its first list's query key and request path (held until answered),
   * its answer and a text it shows; `others` answers the screen's other requests at once, and
   * `loading` is what it shows until the list answers (any 'Loading…' unless named).
   */
  const screens = [
    {
      path: '/dashboard/alpha-co-k3/jobs',
      heading: 'Jobs',
      key: ['orgs', 'org-a', 'jobs', 'running'],
      request: '/api/v1/orgs/org-a/jobs',
      answer: {
        items: [
          makeJob({
            id: '00000000-0000-4000-8000-0000000000a1',
            kind: 'ocr',
            status: 'running',
            progress: 0.5,
          }),
        ],
        total: 1,
        subjects: [],
      },
      row: 'Text recognition (OCR)',
    },
    {
      path: '/dashboard/alpha-co-k3/members',
      heading: 'Members',
      key: ['orgs', 'org-a', 'team', 'members'],
      request: '/api/v1/orgs/org-a/members',
      answer: {
        members: [
          {
            id: 'm-1',
            userId: 'user-2',
            name: 'Grace',
            email: 'grace@hopper.law',
            role: 'owner',
            joinedAt: '2025-01-01T00:00:00.000Z',
          },
        ],
      },
      row: 'grace@hopper.law',
      others: { '/api/v1/orgs/org-a/invitations': { invitations: [] } },
    },
    {
      path: '/dashboard/alpha-co-k3/conversations',
      heading: 'Conversations',
      key: ['orgs', 'org-a', 'conversations'],
      request: '/api/v1/orgs/org-a/conversations',
      answer: {
        items: [
          {
            id: 'c0ffee00-0000-4000-8000-000000000001',
            orgId: 'org-a',
            appId: null,
            title: 'Governing law of the NDA',
            startedAt: '2025-01-02T00:00:00.000Z',
          },
        ],
        total: 1,
      },
      row: 'Governing law of the NDA',
    },
    {
      path: '/dashboard/alpha-co-k3/voice',
      heading: 'Voice Assistant',
      key: ['orgs', 'org-a', 'recordings'],
      request: '/api/v1/orgs/org-a/recordings',
      answer: {
        items: [
          {
            id: 'r-1',
            appId: null,
            title: 'Lease call',
            mimeType: 'audio/webm',
            sizeBytes: 4,
            durationSec: 70,
            status: 'failed',
            error: 'No speech engine',
            errorCode: null,
            jobId: null,
            summaryJobId: null,
            documentId: null,
            engine: 'local',
            model: null,
            createdBy: 'user-1',
            memoSummary: null,
            createdAt: '2025-01-02T00:00:00.000Z',
          },
        ],
        total: 1,
      },
      row: 'Lease call',
      others: { '/api/v1/orgs/org-a/voice/consent': { acknowledgedAt: null } },
    },
    {
      path: '/dashboard/alpha-co-k3?conversation=c0ffee00-0000-4000-8000-000000000001',
      heading: 'Dashboard',
      key: ['orgs', 'org-a', 'conversations', 'c0ffee00-0000-4000-8000-000000000001', 'messages'],
      request: '/api/v1/orgs/org-a/conversations/c0ffee00-0000-4000-8000-000000000001/messages',
      answer: {
        items: [
          {
            id: 'm1',
            role: 'user',
            content: 'Which law governs?',
            citations: [],
            createdAt: '2025-01-02T00:00:00.000Z',
          },
        ],
      },
      row: 'Which law governs?',
      // The home's other panels (activity, figures) load as before; the conversation is ready.
      loading: 'Loading the conversation…',
      others: { '/api/v1/orgs/org-a/documents': { items: [], total: 0, types: [] } },
    },
  ]

  it.each(screens)(
    'opens $heading at once on its loading state, then its first list, asked once',
    async ({ path, heading, key, request, answer, row, others = {}, loading = /^Loading/ }) => {
      let reply: (response: Response) => void = () => {}
      const held = new Promise<Response>((resolve) => (reply = resolve))
      const calls = server({
        more: (r) => {
          const { pathname } = new URL(r.url)
          if (pathname === request) return held
          const other = (others as Record<string, unknown>)[pathname]
          return other === undefined ? undefined : jsonResponse(other)
        },
      })
      const queryClient = testQueryClient()
      setRouteQueryClient(queryClient)
      renderWithRouter({ routes, initialPath: path, queryClient })

      // The screen shows while its list is still asked for, saying it is loading…
      expect(await screen.findByRole('heading', { name: heading })).toBeVisible()
      expect(screen.getAllByText(loading)[0]).toBeVisible()
      expect(queryClient.isFetching({ queryKey: key })).toBe(1)
      reply(jsonResponse(answer))
      // …then its rows, from the one request the loader and the screen share.
      expect(await screen.findByText(row)).toBeVisible()
      expect(screen.queryByText(loading)).toBeNull()
      expect(calls.calls().filter((call) => call === `GET ${request}`)).toHaveLength(1)
    },
  )
})
