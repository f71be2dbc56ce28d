/**
 * An SMTP server on loopback for `npm run test:server` (smtp-server from npm): keeps every
 * message it receives, so a check can read the sign-in link a Lexdesk instance mailed.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string
  /** Resolves with the first message (raw, headers and body) sent to `to`; rejects after `timeoutMs`. */
  waitFor(to: string, timeoutMs: number): Promise<string>
  close(): Promise<void>
}

/** Starts the server on a port the kernel picks. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const received: Array<{ to: string[]; raw: string }> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    async waitFor(to, timeoutMs) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const mail = received.find((m) => m.to.includes(to))
        if (mail) return mail.raw
        if (Date.now() > until) throw new Error(`no mail to ${to} within ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
