import { useId, useState, type FormEvent } from 'react'
import { useLocation, useSearchParams } from 'react-router'
import { KeyRoundIcon, MailCheckIcon, MailIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { useSendMagicLink } from './use-send-magic-link'
import { startSsoSignIn } from './start-sso-sign-in'

// Deliberately loose: the server is the authority; this only catches obvious typos.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * What a sign-in link that did not sign in leads back with (`?error=`, better-auth's codes and
 * the confirmation page's), said to the person who followed it.
 */
export function linkErrorMessage(code: string): string {
  if (code === 'EXPIRED_TOKEN') return 'This sign-in link has expired.'
  if (code === 'INVALID_TOKEN') return 'This sign-in link was already used or has expired.'
  if (code === 'SSO_REQUIRED')
    return 'Your firm requires single sign-on for this address: use “Sign in with your firm’s SSO”.'
  return 'This sign-in link did not work.'
}

/**
 * Passwordless sign-in: e-mail form, then the 'Check your email' confirmation; or, after "Sign in
 * with your firm's SSO", the same e-mail sent to single sign-on, which redirects to the firm's
 * identity provider when its domain has one. The link leads to
 * `callbackURL` (default /dashboard); a link already used or expired leads back to the page the
 * form is on, which says so above the form and offers a new one.
 */
export function SignInForm({ callbackURL }: { callbackURL?: string } = {}) {
  const [email, setEmail] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [sso, setSso] = useState(false)
  const [ssoPending, setSsoPending] = useState(false)
  const { pathname } = useLocation()
  const linkError = useSearchParams()[0].get('error')
  const sendLink = useSendMagicLink(callbackURL, pathname)
  const emailId = useId()
  const errorId = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    if (!address) return setFieldError('Please enter your email')
    if (!EMAIL_SHAPE.test(address)) return setFieldError('Please enter a valid email address')
    setFieldError(null)
    if (sso) {
      setSsoPending(true)
      try {
        window.location.assign(await startSsoSignIn(address, callbackURL ?? '/dashboard', pathname))
      } catch (error) {
        setSsoPending(false)
        toast.error(error instanceof Error ? error.message : String(error))
      }
      return
    }
    try {
      await sendLink.mutateAsync(address)
      toast.success('Check your email for the magic link!')
      setSentTo(address)
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error))
    }
  }

  if (sentTo !== null) {
    return (
      <div className="space-y-4 text-center" aria-live="polite">
        <MailCheckIcon className="mx-auto size-10 text-success" aria-hidden="true" />
        <h2 className="font-serif text-xl font-semibold">Check your email</h2>
        <p className="text-sm text-muted-foreground">
          We sent a secure sign-in link to <strong className="text-foreground">{sentTo}</strong>. It
          works once and expires shortly.
        </p>
        <Button
          type="button"
          variant="outline"
          className="w-full"
          onClick={() => {
            setSentTo(null)
            setEmail('')
          }}
        >
          Use a different email
        </Button>
      </div>
    )
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {linkError !== null && (
        <p role="alert" className="rounded-md border border-destructive/40 p-3 text-sm">
          {linkErrorMessage(linkError)} Enter your e-mail to get a new link.
        </p>
      )}
      <div className="space-y-2">
        <Label htmlFor={emailId}>Email</Label>
        <Input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@yourfirm.com"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value)
            if (fieldError) setFieldError(null)
          }}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
        />
        {fieldError ? (
          <p id={errorId} role="alert" className="text-sm text-destructive">
            {fieldError}
          </p>
        ) : null}
      </div>
      {sso ? (
        <Button type="submit" className="w-full" disabled={ssoPending}>
          <KeyRoundIcon aria-hidden="true" />
          {ssoPending ? 'Redirecting…' : 'Continue with SSO'}
        </Button>
      ) : (
        <Button type="submit" className="w-full" disabled={sendLink.isPending}>
          <MailIcon aria-hidden="true" />
          {sendLink.isPending ? 'Sending…' : 'Send Secure Link'}
        </Button>
      )}
      <Button type="button" variant="outline" className="w-full" onClick={() => setSso(!sso)}>
        {sso ? 'Sign in with an e-mail link instead' : 'Sign in with your firm’s SSO'}
      </Button>
    </form>
  )
}
