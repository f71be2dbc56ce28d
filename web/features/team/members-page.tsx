import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { ColumnDef } from '@tanstack/react-table'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { PageHeader } from '../../components/page-header'
import { DataTable } from '../../components/data-table/data-table'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { authClient } from '../../lib/auth-client'
import { useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import { useLinkedId } from '../../lib/use-linked-id'
import { cn } from '../../lib/utils'
import {
  invitationsQuery,
  membersQuery,
  teamActions,
  type TeamInvitation,
  type TeamMember,
  type TeamRole,
} from './api'
import { InviteMemberForm } from './invite-member-form'
import { grantableRoles, RoleSelect } from './role-select'
import { useTeamChange } from './use-team-change'

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/**
 * /dashboard/:orgSlug/members: the organisation's members with role and join date, and its
 * pending invitations. Owners and admins invite, resend, cancel, change roles and remove; every
 * member sees the list and may leave. The member or invitation the address names (`?member=`,
 * `?invitation=`: the audit log's links) is marked. The server holds the rules (decisions 0045, 0050); this screen
 * only hides what the signed-in member may not do.
 */
export function MembersPage() {
  const { orgId } = useOrgScope()
  const members = useQuery(membersQuery(orgId))
  const [linkedMember] = useLinkedId('member')
  const [linkedInvitation] = useLinkedId('invitation')
  const session = authClient.useSession()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const actions = teamActions(orgId)
  const me = members.data?.find((m) => m.userId === session.data?.user.id)
  // The role the organisation gave (the layout reads it once), not one found in the member list:
  // the list may still load or fail, and a member must never send the admin-only requests.
  const myRole: TeamRole = useOrgRole()
  const manages = myRole !== 'member'
  // Invitations hold addresses: only owners and admins may read them (the server answers 403).
  const invitations = useQuery({ ...invitationsQuery(orgId), enabled: manages })
  const failed = members.error ?? invitations.error
  const roles = grantableRoles(myRole)

  const changeRole = useTeamChange(
    orgId,
    ({ memberId, role }: { memberId: string; role: TeamRole; name: string }) =>
      actions.changeRole(memberId, role),
    ({ name, role }) => `${name} is now ${role}`,
  )
  const remove = useTeamChange(
    orgId,
    ({ memberId }: { memberId: string; name: string }) => actions.remove(memberId),
    ({ name }) => `${name} was removed`,
  )
  const resend = useTeamChange(orgId, actions.resend, (i) =>
    i.sent ? `Invitation sent again to ${i.email}` : `Invitation sent to ${i.email}`,
  )
  const cancel = useTeamChange(
    orgId,
    (i: TeamInvitation) => actions.cancel(i.id),
    (i) => `Invitation to ${i.email} cancelled`,
  )
  // The cells read this render's role, session and mutations; built each render (the React
  // Compiler memoises). An admin may not touch an owner; nobody changes themselves here (they
  // leave instead).
  const editable = (m: TeamMember) =>
    manages && m.id !== me?.id && (myRole === 'owner' || m.role !== 'owner')
  const nameOf = (m: TeamMember) => m.name || m.email
  const cell = 'px-3 py-2'
  const columns: ColumnDef<TeamMember>[] = [
    {
      header: 'Name',
      id: 'name',
      meta: { cellClassName: cell, headerClassName: 'px-3' },
      cell: ({ row: { original: m } }) => (
        <>
          {nameOf(m)}
          {m.id === me?.id && (
            <Badge variant="secondary" className="ml-2">
              you
            </Badge>
          )}
        </>
      ),
    },
    {
      header: 'E-mail',
      accessorKey: 'email',
      meta: { cellClassName: cell, headerClassName: 'px-3' },
    },
    {
      header: 'Role',
      id: 'role',
      meta: { cellClassName: cell, headerClassName: 'px-3' },
      cell: ({ row: { original: m } }) =>
        editable(m) ? (
          <RoleSelect
            label={`Role of ${nameOf(m)}`}
            inRow
            value={m.role}
            roles={roles}
            disabled={changeRole.isPending}
            onChange={(role) => changeRole.mutate({ memberId: m.id, role, name: nameOf(m) })}
          />
        ) : (
          <Badge variant="outline">{m.role}</Badge>
        ),
    },
    {
      header: 'Joined',
      id: 'joined',
      meta: { cellClassName: cell, headerClassName: 'px-3' },
      cell: ({ row: { original: m } }) => day.format(m.joinedAt),
    },
    ...(manages
      ? [
          {
            header: 'Actions',
            id: 'actions',
            meta: { cellClassName: cell, headerClassName: 'px-3' },
            cell: ({ row: { original: m } }) =>
              editable(m) && (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm(`Remove ${nameOf(m)} from this organization?`))
                      remove.mutate({ memberId: m.id, name: nameOf(m) })
                  }}
                >
                  Remove
                </Button>
              ),
          } satisfies ColumnDef<TeamMember>,
        ]
      : []),
  ]
  const [leaving, setLeaving] = useState(false)
  const leave = async () => {
    if (!window.confirm('Leave this organization? You lose access to its documents.')) return
    setLeaving(true)
    try {
      await actions.leave()
      await queryClient.invalidateQueries({ queryKey: ['orgs'] })
      toast.success('You left the organization')
      await navigate('/dashboard')
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error))
    } finally {
      setLeaving(false)
    }
  }

  return (
    <>
      <PageHeader
        title="Members"
        description="Who belongs to this organization, with which role."
        actions={
          me ? (
            <Button type="button" variant="outline" disabled={leaving} onClick={leave}>
              {leaving ? 'Leaving…' : 'Leave organization'}
            </Button>
          ) : null
        }
      />
      <div className="flex flex-col gap-6">
        {manages ? (
          <InviteMemberForm orgId={orgId} roles={roles} />
        ) : (
          <p className="text-sm text-muted-foreground">
            Owners and admins invite colleagues and change roles.
          </p>
        )}
        {failed && (
          <p role="alert" className="text-sm text-destructive">
            {failed.message}
          </p>
        )}
        <section aria-label="Members">
          <DataTable
            columns={columns}
            data={members.data}
            status={members.status}
            empty="No members."
            getRowId={(m) => m.id}
            rowAttributes={(m) =>
              m.id === linkedMember ? { 'aria-current': 'true', className: 'bg-accent' } : {}
            }
          />
        </section>
        {manages && (
          <section aria-label="Pending invitations" className="space-y-2">
            <h2 className="font-serif text-lg font-semibold">Pending invitations</h2>
            {invitations.isPending ? (
              <p className="text-sm text-muted-foreground">Loading invitations…</p>
            ) : invitations.isError ? null : invitations.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">No pending invitations.</p>
            ) : (
              <ul className="divide-y rounded-md border">
                {invitations.data.map((i) => (
                  <li
                    key={i.id}
                    aria-current={i.id === linkedInvitation ? 'true' : undefined}
                    className={cn(
                      'flex flex-wrap items-center gap-3 px-3 py-2 text-sm',
                      i.id === linkedInvitation && 'bg-accent',
                    )}
                  >
                    <span className="grow">
                      {i.email} <Badge variant="outline">{i.role}</Badge>
                    </span>
                    {/* An import's invitation waits here until someone sends it (decision 0103). */}
                    <span className="text-muted-foreground">
                      {i.sent ? `expires ${day.format(i.expiresAt)}` : 'not sent (imported)'}
                    </span>
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      disabled={resend.isPending || (myRole !== 'owner' && i.role === 'owner')}
                      onClick={() => resend.mutate(i)}
                    >
                      {i.sent ? 'Resend' : 'Send'}
                    </Button>
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      disabled={cancel.isPending}
                      onClick={() => cancel.mutate(i)}
                    >
                      Cancel
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
      </div>
    </>
  )
}
