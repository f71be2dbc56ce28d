/**
 * How the OpenAPI document says to sign a request (issue 47): the three ways a request of
 * `/api/v1` proves who it is, as `components.securitySchemes`, and each operation's `security`
 * (OpenAPI 3.1 §4.8.30), derived from the same route declarations the guard reads
 * (route-roles.ts): a person's session cookie on every guarded operation; an API key or tenant
 * token, as `Authorization: Bearer …` or `x-api-key: …`, where a credential is admitted
 * (`credentialsAdmitted`), with the scope it needs (`requiredScope`) as the requirement's role
 * list (§4.8.30.1: for schemes other than OAuth2 "a list of role names which are required");
 * nothing on the public probes. The authorisation walk (route-roles.test.ts) checks each
 * operation's promise against what the route really accepts.
 */

/** The scheme names of `components.securitySchemes`. */
export const SECURITY_SCHEMES = {
  session: 'sessionCookie',
  bearer: 'bearerAuth',
  apiKeyHeader: 'apiKeyHeader',
} as const

/** One security requirement of an operation: scheme name → the scopes it must hold. */
export type SecurityRequirement = Record<string, string[]>

/**
 * The document's `components.securitySchemes`; `sessionCookie` is better-auth's session cookie
 * name (`better-auth.session_token`, `__Secure-`-prefixed behind HTTPS).
 */
export function securitySchemes(sessionCookie: string) {
  return {
    [SECURITY_SCHEMES.session]: {
      type: 'apiKey',
      in: 'cookie',
      name: sessionCookie,
      description:
        'A person signed in with an e-mail link (the web app). Holds every scope; its role is the person’s role in the organisation. Writes from a browser must also come from the server’s own origin.',
    },
    [SECURITY_SCHEMES.bearer]: {
      type: 'http',
      scheme: 'bearer',
      description:
        'An API key (`ldk_…`, made on the Security screen) or a tenant token (`ldt_…`), as `Authorization: Bearer <token>`. It holds the scopes it was made with (read, write, admin) and acts in its one organisation.',
    },
    [SECURITY_SCHEMES.apiKeyHeader]: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: 'The same API key or tenant token, sent as the `x-api-key` header instead.',
    },
  } as const
}

/**
 * The `security` of an operation whose least role is `minRole`: the session always; a credential
 * too, holding `scope`, when `credentialsAdmitted` says so (never on owner or session-only routes).
 */
export function operationSecurity(
  admitsCredentials: boolean,
  scope: string,
): SecurityRequirement[] {
  const session = { [SECURITY_SCHEMES.session]: [] }
  if (!admitsCredentials) return [session]
  return [
    session,
    { [SECURITY_SCHEMES.bearer]: [scope] },
    { [SECURITY_SCHEMES.apiKeyHeader]: [scope] },
  ]
}
