import { useId, useState, type FormEvent } from 'react'
import { MailCheckIcon, MailIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { useSendMagicLink } from './use-send-magic-link'

// Deliberately loose: the server is the authority; this only catches obvious typos.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Passwordless sign-in: e-mail form, then the 'Check your email' confirmation. The link leads to
 * `callbackURL` (default /dashboard).
 */
export function SignInForm({ callbackURL }: { callbackURL?: string } = {}) {
  const [email, setEmail] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | null>(null)
  const sendLink = useSendMagicLink(callbackURL)
  const emailId = useId()
  const errorId = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    if (!address) return setFieldError('Please enter your email')
    if (!EMAIL_SHAPE.test(address)) return setFieldError('Please enter a valid email address')
    setFieldError(null)
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
      <Button type="submit" className="w-full" disabled={sendLink.isPending}>
        <MailIcon aria-hidden="true" />
        {sendLink.isPending ? 'Sending…' : 'Send Secure Link'}
      </Button>
    </form>
  )
}
