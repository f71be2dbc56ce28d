import { Navigate, Link } from 'react-router'
import { ScaleIcon, ShieldCheckIcon } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { authClient } from '../../lib/auth-client'
import { SignInForm } from './sign-in-form'

/** /auth: magic-link sign-in, plus the Terms and Privacy sections it links to. Signed-in users go to /dashboard. */
export function SignInPage() {
  const { data: session } = authClient.useSession()
  if (session?.user) return <Navigate to="/dashboard" replace />

  return (
    <div className="min-h-svh bg-muted/40">
      <main className="mx-auto grid max-w-5xl gap-10 px-6 py-12 md:grid-cols-2 md:py-20">
        <section className="flex flex-col justify-center space-y-5">
          <Link
            to="/"
            className="inline-flex w-fit items-center gap-2 rounded-md text-lg font-semibold focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <ScaleIcon className="size-6 text-primary" aria-hidden="true" />
            Lexdesk
          </Link>
          <h1 className="font-serif text-3xl font-semibold tracking-tight">
            Sign in to your firm&apos;s workspace
          </h1>
          <p className="text-muted-foreground">
            No password to remember: enter your work e-mail and we send you a secure link that signs
            you in.
          </p>
          <p className="flex items-start gap-2 text-sm text-muted-foreground">
            <ShieldCheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
            Lexdesk runs on your firm&apos;s own server. Your documents stay there unless an
            administrator points an AI provider elsewhere.
          </p>
        </section>
        <Card className="self-center">
          <CardHeader>
            <CardTitle className="text-xl">Welcome back</CardTitle>
            <CardDescription>Sign in with a secure link sent to your e-mail.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <SignInForm />
            <p className="text-center text-xs text-muted-foreground">
              By continuing you agree to the{' '}
              <a className="underline underline-offset-2" href="#terms">
                Terms of Service
              </a>{' '}
              and the{' '}
              <a className="underline underline-offset-2" href="#privacy">
                Privacy Policy
              </a>
              .
            </p>
          </CardContent>
        </Card>
      </main>
      <div className="mx-auto max-w-3xl space-y-8 px-6 pb-16 text-sm text-muted-foreground">
        <section id="terms" aria-labelledby="terms-heading" className="scroll-mt-6 space-y-2">
          <h2 id="terms-heading" className="font-serif text-lg font-semibold text-foreground">
            Terms of Service
          </h2>
          <p>
            This Lexdesk installation is operated by your firm, not by the Lexdesk project. Your
            firm&apos;s administrator decides who may sign in and how the workspace may be used. AI
            output is an aid to legal work, not legal advice; review it before relying on it.
          </p>
        </section>
        <section id="privacy" aria-labelledby="privacy-heading" className="scroll-mt-6 space-y-2">
          <h2 id="privacy-heading" className="font-serif text-lg font-semibold text-foreground">
            Privacy Policy
          </h2>
          <p>
            Your e-mail address is used to send sign-in links and to identify you within your
            organization. Documents and recordings are stored on your firm&apos;s server and are
            visible only to members of the organization they belong to. Nothing leaves the
            firm&apos;s machine unless an administrator points an AI provider elsewhere.
          </p>
        </section>
      </div>
    </div>
  )
}
