import { useId, useState, type FormEvent } from 'react'
import { MailPlusIcon } from 'lucide-react'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { teamActions, type TeamRole } from './api'
import { RoleSelect } from './role-select'
import { useTeamChange } from './use-team-change'

/** Invites an e-mail address with a role; the invitee gets a sign-in link that joins them. */
export function InviteMemberForm({ orgId, roles }: { orgId: string; roles: TeamRole[] }) {
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<TeamRole>('member')
  const emailId = useId()
  const invite = useTeamChange(
    orgId,
    ({ email, role }: { email: string; role: TeamRole }) => teamActions(orgId).invite(email, role),
    ({ email }) => `Invitation sent to ${email}`,
  )
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    if (address === '') return
    await invite.mutateAsync({ email: address, role }).then(
      () => setEmail(''),
      () => undefined,
    )
  }
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="grow space-y-1">
        <Label htmlFor={emailId}>Invite by e-mail</Label>
        <Input
          id={emailId}
          type="email"
          placeholder="colleague@yourfirm.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <RoleSelect label="Role of the invitee" value={role} roles={roles} onChange={setRole} />
      <Button type="submit" disabled={invite.isPending || email.trim() === ''}>
        <MailPlusIcon aria-hidden="true" />
        {invite.isPending ? 'Sending…' : 'Invite'}
      </Button>
    </form>
  )
}
