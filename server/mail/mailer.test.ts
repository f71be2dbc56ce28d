import { afterEach, describe, expect, it } from 'vitest'
import { SMTPServer } from 'smtp-server'
import type { AddressInfo } from 'node:net'
import { createConsoleMailer, createSmtpMailer } from './mailer'

let server: SMTPServer | undefined
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** Starts an SMTP server on 127.0.0.1 that collects what it receives. */
async function startSmtp(): Promise<{ url: string; received: { to: string[]; raw: string }[] }> {
  const received: { to: string[]; raw: string }[] = []
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()))
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return { url: `smtp://127.0.0.1:${port}`, received }
}

describe('mailers', () => {
  it('sends mail through SMTP with nodemailer', async () => {
    const smtp = await startSmtp()
    const mailer = createSmtpMailer(smtp.url, 'Lexdesk <no-reply@firm.test>')
    await mailer.send({
      to: 'partner@firm.test',
      subject: 'Your Lexdesk sign-in link',
      text: 'Sign in: http://localhost:3000/api/auth/magic-link/verify?token=abc',
    })
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]?.to).toEqual(['partner@firm.test'])
    expect(smtp.received[0]?.raw).toContain('Subject: Your Lexdesk sign-in link')
    expect(smtp.received[0]?.raw).toContain('magic-link/verify?token=abc')
    expect(mailer.outbox).toEqual([])
  })

  it('prints one line per mail naming the recipient and the link, and keeps an outbox', async () => {
    const lines: string[] = []
    const mailer = createConsoleMailer((line) => lines.push(line))
    await mailer.send({
      to: 'a@firm.test',
      subject: 's',
      text: 't',
      link: 'http://localhost:3000/x',
    })
    expect(lines).toEqual(['Mail to a@firm.test: http://localhost:3000/x'])
    expect(mailer.outbox).toHaveLength(1)
  })
})
