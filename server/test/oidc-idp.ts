/**
 * A real OpenID Connect identity provider for the SSO tests (issue 45): `oidc-provider` 9 on
 * 127.0.0.1 and a free port, nothing leaving the machine. Its people are `accounts` (e-mail →
 * claims), which a test adds and removes (a removal is a deprovisioning at the IdP). Its login
 * page is one form (`login` = e-mail, button "Sign in"), which browsers and `signInAt` submit;
 * consent is granted with the login. Clients are fixed at start; `restart` starts it again on the
 * same port and keys with another client list (a redirect URI is known only once Lexdesk has
 * registered the provider, as with a real IdP's admin console).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import Provider from 'oidc-provider'
import { exportJWK, generateKeyPair } from 'jose'
import { freePort } from './free-port'

export interface IdpClient {
  clientId: string
  clientSecret: string
  redirectUris: string[]
}

export interface OidcIdp {
  /** The issuer URL (`http://127.0.0.1:<port>`), also its origin. */
  issuer: string
  /** The people the IdP signs in, by e-mail. */
  accounts: Map<string, { name: string }>
  /** Starts it again with `clients` (same port, same keys, same accounts). */
  restart(clients: IdpClient[]): Promise<void>
  close(): Promise<void>
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => resolve(new URLSearchParams(body)))
    req.on('error', reject)
  })
}

/** Settings of a long-running IdP (the browser tests', e2e/global-setup.ts). */
export interface IdpOptions {
  /** Its port (default a free one). */
  port?: number
  /** Accepts every redirect URI starting with this (the specs' providers are made as they run). */
  redirectsUnder?: string
  /** Knows every address at this domain or its subdomains (the specs' people are made as they run). */
  emailsAt?: string
}

/** Starts the identity provider with `clients`. */
export async function startOidcIdp(
  clients: IdpClient[],
  options: IdpOptions = {},
): Promise<OidcIdp> {
  const port = options.port ?? (await freePort())
  const issuer = `http://127.0.0.1:${port}`
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' }
  const accounts = new Map<string, { name: string }>()
  let server: Server | undefined

  const known = (email: string) =>
    accounts.has(email) ||
    (options.emailsAt !== undefined &&
      (email.endsWith(`@${options.emailsAt}`) || email.endsWith(`.${options.emailsAt}`)))
  const providerFor = (list: IdpClient[]) => {
    const provider = new Provider(issuer, {
      clients: list.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      jwks: { keys: [jwk] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub) => {
        if (!known(sub)) return undefined
        const name = accounts.get(sub)?.name ?? sub.split('@')[0] ?? sub
        return {
          accountId: sub,
          claims: async () => ({ sub, email: sub, email_verified: true, name }),
        }
      },
      cookies: { keys: ['lexdesk-test-idp-cookie-key'] },
      // Ten minutes each (also keeps oidc-provider from printing a notice per default it uses).
      ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    })
    const under = options.redirectsUnder
    if (under !== undefined) {
      provider.Client.prototype.redirectUriAllowed = (uri: string) => uri.startsWith(under)
    }
    return provider
  }

  const listen = async (list: IdpClient[]) => {
    const provider = providerFor(list)
    const oidc = provider.callback()
    const handler = async (req: IncomingMessage, res: ServerResponse) => {
      const match = req.url?.match(/^\/interaction\/([\w-]+)$/)
      if (!match) return oidc(req, res)
      try {
        if (req.method === 'GET') {
          await provider.interactionDetails(req, res)
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          return res.end(
            `<!doctype html><html lang="en"><title>Test IdP</title><main><h1>Test identity provider</h1><form method="post"><label>E-mail <input name="login" type="email"></label><button type="submit">Sign in</button></form></main></html>`,
          )
        }
        const form = await readForm(req)
        const login = (form.get('login') ?? '').trim().toLowerCase()
        const details = await provider.interactionDetails(req, res)
        if (!known(login)) {
          res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' })
          return res.end(`<p>No such account: ${escapeHtml(login)}</p>`)
        }
        const grant = details.grantId
          ? ((await provider.Grant.find(details.grantId)) ??
            new provider.Grant({ accountId: login, clientId: details.params.client_id }))
          : new provider.Grant({ accountId: login, clientId: details.params.client_id })
        grant.addOIDCScope(details.params.scope ?? 'openid email profile')
        const grantId = await grant.save()
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: login }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        )
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' })
        res.end(String(error))
      }
    }
    server = createServer((req, res) => void handler(req, res))
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve))
  }

  const close = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve()
      server.closeAllConnections()
      server.close(() => resolve())
      server = undefined
    })

  await listen(clients)
  return {
    issuer,
    accounts,
    restart: async (list) => {
      await close()
      await listen(list)
    },
    close,
  }
}

/** Cookies of a fetch response's Set-Cookie headers, as `name=value` by name. */
function keepCookies(jar: Map<string, string>, response: Response) {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';')
    const at = pair.indexOf('=')
    if (at > 0) jar.set(pair.slice(0, at), pair)
  }
}

/**
 * Signs `email` in at the IdP as a browser does from `authorizationUrl` (the redirect Lexdesk
 * answered) and returns the URL the IdP sends the browser back to (Lexdesk's callback with the
 * code), or throws with the IdP's answer when it refuses.
 */
export async function signInAt(authorizationUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>()
  const cookieHeader = () => [...jar.values()].join('; ')
  let url = authorizationUrl
  let init: RequestInit = {}
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
    })
    keepCookies(jar, response)
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url)
      if (!next.href.startsWith(new URL(authorizationUrl).origin)) return next.href
      url = next.href
      init = {}
      continue
    }
    if (response.status === 200 && /\/interaction\//.test(url) && init.method !== 'POST') {
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: email }).toString(),
      }
      continue
    }
    throw new Error(`IdP answered ${response.status}: ${await response.text()}`)
  }
  throw new Error('Too many redirects at the IdP')
}
