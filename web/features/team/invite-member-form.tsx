import { MailPlusIcon } from 'lucide-react'
import { Controller, useWatch } from 'react-hook-form'
import * as z from 'zod/mini'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { LabelledSelect } from '../../components/labelled-select'
import { teamActions, type TeamRole } from './api'
import { useTeamChange } from './use-team-change'

const inviteSchema = z.object({
  // A light check of the address's shape (the server checks it again); z.email's full pattern
  // would join the forms' shared chunk and weigh on every dashboard route.
  email: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter the e-mail address to invite.'),
      z.regex(
        /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
        'Enter an e-mail address, e.g. colleague@yourfirm.com.',
      ),
    ),
  role: z.enum(['member', 'admin', 'owner']),
})

type InviteValues = z.input<typeof inviteSchema>

/** Invites an e-mail address with a role; the invitee gets a sign-in link that joins them. */
export function InviteMemberForm({ orgId, roles }: { orgId: string; roles: TeamRole[] }) {
  const form = useZodForm(inviteSchema, { email: '', role: 'member' })
  const email = useWatch({ control: form.control, name: 'email' })
  const invite = useTeamChange(
    orgId,
    ({ email, role }: { email: string; role: TeamRole }) => teamActions(orgId).invite(email, role),
    ({ email }) => `Invitation sent to ${email}`,
  )
  // The role stays as chosen for the next invitation; only the address is cleared.
  const submit = (values: z.output<typeof inviteSchema>) =>
    invite.mutateAsync(values).then(
      () => form.resetField('email'),
      () => undefined,
    )
  return (
    <Form form={form} onSubmit={submit} className="flex flex-wrap items-start gap-2">
      <FormField<InviteValues>
        name="email"
        label="Invite by e-mail"
        type="email"
        placeholder="colleague@yourfirm.com"
        className="grow"
      />
      <Controller
        control={form.control}
        name="role"
        render={({ field }) => (
          <LabelledSelect
            label="Role"
            aria-label="Role of the invitee"
            labelClassName="font-medium leading-none"
            value={field.value}
            onValueChange={field.onChange}
            onBlur={field.onBlur}
            options={roles.map((role) => ({ value: role, label: role }))}
          />
        )}
      />
      {/* The button lines up with the fields: below their labels (14 px) and its 4 px gap. */}
      <FormSubmit
        pending={invite.isPending}
        pendingLabel={
          <>
            <MailPlusIcon aria-hidden="true" />
            Sending…
          </>
        }
        disabled={!email.trim()}
        className="mt-[18px]"
      >
        <MailPlusIcon aria-hidden="true" />
        Invite
      </FormSubmit>
    </Form>
  )
}
