/**
 * oidc-provider (9.x) ships no types: the part the SSO tests' local identity provider uses
 * (server/test/oidc-idp.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface Claims {
    sub: string
    [claim: string]: unknown
  }
  interface Account {
    accountId: string
    claims(): Promise<Claims>
  }
  interface InteractionDetails {
    uid: string
    grantId?: string
    params: Record<string, string | undefined> & { client_id: string }
    prompt: {
      name: string
      details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] }
    }
  }
  interface GrantInstance {
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    save(): Promise<string>
  }
  interface GrantClass {
    new (init: { accountId: string; clientId: string }): GrantInstance
    find(id: string): Promise<GrantInstance | undefined>
  }
  export interface Configuration {
    clients?: Record<string, unknown>[]
    jwks?: { keys: Record<string, unknown>[] }
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>
    claims?: Record<string, string[]>
    features?: Record<string, unknown>
    interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string }
    pkce?: { required: () => boolean }
    cookies?: Record<string, unknown>
    ttl?: Record<string, number>
    [option: string]: unknown
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration)
    Grant: GrantClass
    /** The client model; its redirectUriAllowed decides which redirect URIs a client may use. */
    Client: { prototype: { redirectUriAllowed(uri: string): boolean } }
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    on(event: string, listener: (...args: unknown[]) => void): void
  }
}
