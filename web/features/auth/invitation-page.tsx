import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ScaleIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { LoadingScreen } from '../../components/loading-screen'
import { authClient, authErrorMessage } from '../../lib/auth-client'
import { SignInForm } from './sign-in-form'

/**
 * /invitations/:invitationId, where an invitation's sign-in link leads (decision 0045). Signed
 * out: a sign-in form whose link comes back here. Signed in: the invitation (organisation, role)
 * with a Join button that accepts it and opens the organisation, and a Decline button that
 * refuses it (better-auth's reject-invitation, audited as `invitation.reject`); an expired,
 * cancelled or foreign invitation shows the server's reason and joins nothing.
 */
export function InvitationPage() {
  const { invitationId = '' } = useParams()
  const session = authClient.useSession()
  const signedIn = Boolean(session.data?.user)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState<'joining' | 'declining' | null>(null)
  const [declined, setDeclined] = useState(false)
  const invitation = useQuery({
    queryKey: ['invitation', invitationId] as const,
    enabled: signedIn && !declined,
    retry: false,
    queryFn: async () => {
      const { data, error } = await authClient.organization.getInvitation({
        query: { id: invitationId },
      })
      if (error) throw new Error(authErrorMessage(error))
      return data
    },
  })
  /** Runs `send` with `label` busy, and frees the buttons however it ends (a network failure too). */
  const sending = async <T,>(label: 'joining' | 'declining', send: () => Promise<T>) => {
    setBusy(label)
    try {
      return await send()
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure))
      return null
    } finally {
      setBusy(null)
    }
  }
  const join = async () => {
    const answer = await sending('joining', () =>
      authClient.organization.acceptInvitation({ invitationId }),
    )
    if (!answer) return
    const { error } = answer
    if (error) return void toast.error(authErrorMessage(error))
    await queryClient.invalidateQueries({ queryKey: ['orgs'] })
    toast.success(`You joined ${invitation.data?.organizationName ?? 'the organization'}`)
    await navigate(`/dashboard/${invitation.data?.organizationSlug ?? ''}`)
  }

  const decline = async () => {
    const answer = await sending('declining', () =>
      authClient.organization.rejectInvitation({ invitationId }),
    )
    if (!answer) return
    const { error } = answer
    if (error) return void toast.error(authErrorMessage(error))
    setDeclined(true)
    toast.success(`You declined the invitation to ${invitation.data?.organizationName ?? 'join'}`)
  }

  if (session.isPending) return <LoadingScreen />
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 p-6">
      <Card className="w-full max-w-md">
        <CardHeader>
          <Link to="/" className="mb-2 inline-flex w-fit items-center gap-2 font-semibold">
            <ScaleIcon className="size-5 text-primary" aria-hidden="true" />
            Lexdesk
          </Link>
          <CardTitle level={1}>Invitation</CardTitle>
          {!signedIn && (
            <CardDescription>
              Sign in with the address the invitation was sent to; the link we send brings you back
              here to join.
            </CardDescription>
          )}
        </CardHeader>
        <CardContent className="space-y-4">
          {!signedIn && <SignInForm callbackURL={`/invitations/${invitationId}`} />}
          {signedIn && !declined && invitation.isPending && (
            <p className="text-sm text-muted-foreground">Loading the invitation…</p>
          )}
          {invitation.isError && (
            <p role="alert" className="text-sm text-destructive">
              {invitation.error.message} This invitation cannot be used; ask for a new one.
            </p>
          )}
          {declined && <p>You declined this invitation; it can no longer be used.</p>}
          {invitation.data && !declined && (
            <>
              <p>
                You are invited to join <strong>{invitation.data.organizationName}</strong> as{' '}
                <strong>{invitation.data.role}</strong>.
              </p>
              <div className="flex gap-2">
                <Button type="button" onClick={join} disabled={busy !== null} className="flex-1">
                  {busy === 'joining' ? 'Joining…' : `Join ${invitation.data.organizationName}`}
                </Button>
                <Button type="button" variant="outline" onClick={decline} disabled={busy !== null}>
                  {busy === 'declining' ? 'Declining…' : 'Decline'}
                </Button>
              </div>
            </>
          )}
          {signedIn && (
            <Link to="/dashboard" className="block text-center text-sm underline">
              Go to your dashboard
            </Link>
          )}
        </CardContent>
      </Card>
    </main>
  )
}
