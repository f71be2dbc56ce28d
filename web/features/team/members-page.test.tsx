import { describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { OrgRole } from '../../lib/org-role'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { resetAuthSession } from '../../test/reset-auth-session'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { MembersPage } from './members-page'

const user = (id: string, name: string) => ({
  id,
  name,
  email: `${name.toLowerCase()}@firm.test`,
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
})
const memberRow = (id: string, role: string, who: ReturnType<typeof user>, day: string) => ({
  id,
  userId: who.id,
  name: who.name,
  email: who.email,
  role,
  joinedAt: `2025-03-${day}T09:00:00.000Z`,
})
const INVITATION = {
  id: 'inv-1',
  email: 'newbie@firm.test',
  role: 'member',
  expiresAt: '2099-01-01T00:00:00.000Z',
  sent: true,
}
const OWNER = user('u-owner', 'Olivia')
const ADMIN = user('u-admin', 'Adam')
const MEMBER = user('u-member', 'Mia')

function sessionOf(who: ReturnType<typeof user>) {
  return {
    session: {
      id: 's1',
      userId: who.id,
      token: 't',
      expiresAt: '2099-01-01T00:00:00.000Z',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    },
    user: who,
  }
}

/**
 * A server with three members and one pending invitation, signed in as `me`; the invitations
 * are refused (403) to a member, as the server does.
 */
function serve(
  me: ReturnType<typeof user>,
  extra: Record<string, () => Response | Promise<Response>> = {},
  search = '',
) {
  const members = [
    memberRow('m-owner', 'owner', OWNER, '01'),
    memberRow('m-admin', 'admin', ADMIN, '02'),
    memberRow('m-member', 'member', MEMBER, '03'),
  ]
  const invitations = [INVITATION]
  const stub = stubFetch({
    'GET /api/auth/get-session': () => jsonResponse(sessionOf(me)),
    'GET /api/v1/orgs/org-1/members': () => jsonResponse({ members }),
    'GET /api/v1/orgs/org-1/invitations': () =>
      me === MEMBER ? problemResponse(403, 'Forbidden') : jsonResponse({ invitations }),
    ...extra,
  })
  resetAuthSession()
  renderWithRouter({
    routes: [
      {
        path: '/dashboard/acme-law/members',
        element: inOrgScope(<MembersPage />, {}, roleOf(me)),
      },
      { path: '/dashboard', element: <p>Your organizations</p> },
    ],
    initialPath: `/dashboard/acme-law/members${search}`,
  })
  return stub
}

/** The role the organisation layout would provide for `who`. */
function roleOf(who: ReturnType<typeof user>): OrgRole {
  return who === OWNER ? 'owner' : who === ADMIN ? 'admin' : 'member'
}

/** The JSON body of the first POST to `path`. */
async function bodyOf(stub: ReturnType<typeof stubFetch>, path: string) {
  const request = stub.requests.find((r) => r.method === 'POST' && new URL(r.url).pathname === path)
  return request ? ((await request.json()) as Record<string, unknown>) : undefined
}

describe('MembersPage', () => {
  it('says Loading… in the members table while it loads', async () => {
    serve(OWNER, { 'GET /api/v1/orgs/org-1/members': () => new Promise<Response>(() => {}) })
    const table = await screen.findByRole('region', { name: 'Members' })
    expect(within(table).getByRole('cell', { name: 'Loading…' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
  })

  it('lists members with role and join date, and pending invitations', async () => {
    serve(OWNER)
    const table = await screen.findByRole('region', { name: 'Members' })
    await within(table).findByText('Olivia')
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(4)
    expect(within(rows[1]!).getByText('olivia@firm.test')).toBeInTheDocument()
    expect(within(rows[3]!).getByRole('combobox', { name: 'Role of Mia' })).toHaveValue('member')
    expect(within(rows[1]!).getByText('Mar 1, 2025', { exact: false })).toBeInTheDocument()
    const invitations = screen.getByRole('region', { name: 'Pending invitations' })
    expect(within(invitations).getByText('newbie@firm.test')).toBeInTheDocument()
  })

  it('marks the member or the invitation its address names (the audit log links)', async () => {
    serve(OWNER, {}, '?member=m-admin')
    const adam = (await screen.findByText('Adam')).closest('tr')
    expect(adam).toHaveAttribute('aria-current', 'true')
    expect(screen.getByText('Olivia').closest('tr')).not.toHaveAttribute('aria-current')
  })

  it('marks the pending invitation its address names', async () => {
    serve(OWNER, {}, '?invitation=inv-1')
    const invitations = await screen.findByRole('region', { name: 'Pending invitations' })
    const item = (await within(invitations).findByText('newbie@firm.test')).closest('li')
    expect(item).toHaveAttribute('aria-current', 'true')
  })

  it('invites an address with a role and toasts it', async () => {
    const stub = serve(OWNER, {
      'POST /api/v1/orgs/org-1/invitations': () =>
        jsonResponse(
          { id: 'inv-2', email: 'colleague@firm.test', role: 'admin', expiresAt: '2099-01-01' },
          201,
        ),
    })
    await screen.findByText('Olivia')
    await userEvent.type(screen.getByLabelText('Invite by e-mail'), 'colleague@firm.test')
    await userEvent.selectOptions(screen.getByLabelText('Role of the invitee'), 'admin')
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(await screen.findByText('Invitation sent to colleague@firm.test')).toBeInTheDocument()
    expect(await bodyOf(stub, '/api/v1/orgs/org-1/invitations')).toEqual({
      email: 'colleague@firm.test',
      role: 'admin',
    })
  })

  it('refuses an invitation to something that is not an address, saying so beside the field, and sends nothing', async () => {
    const stub = serve(OWNER)
    await screen.findByText('Olivia')
    const field = screen.getByLabelText('Invite by e-mail')
    await userEvent.type(field, 'colleague at firm')
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(field).toHaveAccessibleDescription(
      'Enter an e-mail address, e.g. colleague@yourfirm.com.',
    )
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(await bodyOf(stub, '/api/v1/orgs/org-1/invitations')).toBeUndefined()
    // What was typed stays, to be corrected.
    expect(field).toHaveValue('colleague at firm')
  })

  it('resends and cancels a pending invitation', async () => {
    const stub = serve(OWNER, {
      'POST /api/v1/orgs/org-1/invitations/inv-1/resend': () => jsonResponse(INVITATION),
      'DELETE /api/v1/orgs/org-1/invitations/inv-1': () => new Response(null, { status: 204 }),
    })
    const invitations = await screen.findByRole('region', { name: 'Pending invitations' })
    await within(invitations).findByText('newbie@firm.test')
    await userEvent.click(within(invitations).getByRole('button', { name: 'Resend' }))
    expect(await screen.findByText('Invitation sent again to newbie@firm.test')).toBeInTheDocument()
    expect(stub.calls()).toContain('POST /api/v1/orgs/org-1/invitations/inv-1/resend')
    await userEvent.click(within(invitations).getByRole('button', { name: 'Cancel' }))
    expect(await screen.findByText('Invitation to newbie@firm.test cancelled')).toBeInTheDocument()
    expect(stub.calls()).toContain('DELETE /api/v1/orgs/org-1/invitations/inv-1')
  })

  it('shows an invitation an import left unsent as not sent, and sends it with Send', async () => {
    const imported = { ...INVITATION, id: 'inv-9', email: 'partner@old.test', sent: false }
    const stub = serve(OWNER, {
      'GET /api/v1/orgs/org-1/invitations': () => jsonResponse({ invitations: [imported] }),
      'POST /api/v1/orgs/org-1/invitations/inv-9/resend': () =>
        jsonResponse({ ...imported, id: 'inv-10', sent: true }),
    })
    const invitations = await screen.findByRole('region', { name: 'Pending invitations' })
    const item = (await within(invitations).findByText('partner@old.test')).closest('li')!
    expect(within(item).getByText('not sent (imported)')).toBeInTheDocument()
    expect(within(item).queryByText(/expires/)).toBeNull()
    expect(within(item).queryByRole('button', { name: 'Resend' })).toBeNull()
    await userEvent.click(within(item).getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Invitation sent to partner@old.test')).toBeInTheDocument()
    expect(stub.calls()).toContain('POST /api/v1/orgs/org-1/invitations/inv-9/resend')
  })

  it('lets an admin grant member or admin, never owner, and leaves owners untouched', async () => {
    serve(ADMIN)
    await screen.findByText('Olivia')
    const roleOfMia = screen.getByRole('combobox', { name: 'Role of Mia' })
    expect(
      within(roleOfMia)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['member', 'admin'])
    expect(screen.queryByRole('combobox', { name: 'Role of Olivia' })).toBeNull()
    expect(screen.getAllByRole('button', { name: 'Remove' })).toHaveLength(1)
  })

  it("changes a role and shows the server's refusal", async () => {
    serve(OWNER, {
      'PATCH /api/v1/orgs/org-1/members/m-member': () =>
        problemResponse(403, 'You are not allowed to update this member'),
    })
    await screen.findByText('Olivia')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Role of Mia' }), 'admin')
    expect(await screen.findByText('You are not allowed to update this member')).toBeInTheDocument()
  })

  it('removes a member after confirmation', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true)
    const stub = serve(OWNER, {
      'DELETE /api/v1/orgs/org-1/members/m-admin': () => new Response(null, { status: 204 }),
    })
    await screen.findByText('Olivia')
    const adamRow = screen.getByText('Adam').closest('tr')!
    await userEvent.click(within(adamRow).getByRole('button', { name: 'Remove' }))
    expect(confirm).toHaveBeenCalledWith('Remove Adam from this organization?')
    expect(await screen.findByText('Adam was removed')).toBeInTheDocument()
    expect(stub.calls()).toContain('DELETE /api/v1/orgs/org-1/members/m-admin')
  })

  it('says Loading while the invitations load', async () => {
    serve(OWNER, { 'GET /api/v1/orgs/org-1/invitations': () => new Promise<Response>(() => {}) })
    const invitations = await screen.findByRole('region', { name: 'Pending invitations' })
    expect(within(invitations).getByText('Loading invitations…')).toBeInTheDocument()
    expect(within(invitations).queryByRole('list')).toBeNull()
  })

  it('keeps Leave busy while the leave is sent, and usable again after a refusal', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    let answer: (response: Response) => void = () => {}
    serve(MEMBER, {
      'POST /api/v1/orgs/org-1/leave': () =>
        new Promise<Response>((resolve) => {
          answer = resolve
        }),
    })
    await screen.findByText('Olivia')
    await userEvent.click(screen.getByRole('button', { name: 'Leave organization' }))
    expect(screen.getByRole('button', { name: 'Leaving…' })).toBeDisabled()
    answer(problemResponse(409, 'The last owner cannot leave'))
    expect(await screen.findByText('The last owner cannot leave')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Leave organization' })).toBeEnabled()
  })

  it("asks for an admin's invitations by the organisation's role, before the member list arrives", async () => {
    const stub = serve(ADMIN, {
      'GET /api/v1/orgs/org-1/members': () => new Promise<Response>(() => {}),
    })
    expect(await screen.findByRole('region', { name: 'Pending invitations' })).toBeInTheDocument()
    await waitFor(() => expect(stub.calls()).toContain('GET /api/v1/orgs/org-1/invitations'))
  })

  it('shows a member the list without managing controls, and lets them leave', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    const stub = serve(MEMBER, {
      'POST /api/v1/orgs/org-1/leave': () => new Response(null, { status: 204 }),
      'GET /api/auth/organization/list': () => jsonResponse([]),
    })
    await screen.findByText('Olivia')
    expect(screen.queryByLabelText('Invite by e-mail')).toBeNull()
    expect(screen.queryByRole('combobox')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull()
    expect(screen.queryByRole('region', { name: 'Pending invitations' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Leave organization' }))
    expect(await screen.findByText('You left the organization')).toBeInTheDocument()
    expect(await screen.findByText('Your organizations')).toBeInTheDocument()
    expect(stub.calls()).toContain('POST /api/v1/orgs/org-1/leave')
    expect(stub.calls()).not.toContain('GET /api/v1/orgs/org-1/invitations')
  })
})
