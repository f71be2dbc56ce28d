/**
 * Outgoing e-mail. With SMTP_URL, mail goes through nodemailer; without it, each mail is printed
 * as one console line naming the recipient and the link, and kept in an in-memory outbox.
 */
import nodemailer from 'nodemailer'

export interface Mail {
  to: string
  subject: string
  text: string
  html?: string
  /** The action link inside the mail, printed by the console mailer. */
  link?: string
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  /** Mails sent by the console mailer (development and tests); empty for SMTP. */
  readonly outbox: Mail[]
}

/** A mailer that prints `Mail to <to>: <link>` and keeps the mail in `outbox` (last 100). */
export function createConsoleMailer(print: (line: string) => void = console.log): Mailer {
  const outbox: Mail[] = []
  return {
    outbox,
    async send(mail) {
      outbox.push(mail)
      if (outbox.length > 100) outbox.shift()
      print(`Mail to ${mail.to}: ${mail.link ?? mail.subject}`)
    },
  }
}

/** A nodemailer transport over `smtpUrl` (e.g. smtps://user:pass@host:465), sending from `from`. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    outbox: [],
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      })
    },
  }
}
