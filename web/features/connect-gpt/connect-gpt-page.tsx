import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { useOrgScope } from '../../lib/org-scope'
import { assistantApiQuery, assistantOpenApiUrl, mcpUrl } from './api'
import { ExternalAssistantsSwitch } from './external-assistants-switch'

/** Questions that show what an assistant connected to the firm's data can do. */
const SAMPLE_PROMPTS = [
  'Find every clause about termination for convenience in our supply agreements and quote them with their documents.',
  'List our clients of type "client" created this month, then draft a short status note for each.',
  'What did we ask Lexdesk’s assistant recently about the Acme NDA? Summarise the open questions.',
  'Summarise the risks found in the latest lease we uploaded, citing the passages.',
  'Add "Northwind Ltd" as a new entity of type counterparty, then log what you did.',
]

/** What a firm should know before handing a credential to an assistant. */
const SECURITY_TIPS = [
  'Give each assistant its own API key with only the scopes it needs (read, unless it must create entities), and an expiry.',
  'Revoke a key at once on the Security screen if it leaks or the assistant is no longer used; every call it made stays in the audit log.',
  'Never paste a key into a conversation: put it only in the assistant’s authentication settings.',
  'Check your provider’s data terms (training, retention) before turning external assistants on.',
  'Ask the assistant to call logGptAction after every change, so the audit log shows what it did and why.',
]

function Section({
  title,
  description,
  children,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <div className="space-y-3 px-6 pb-6 text-sm">{children}</div>
    </Card>
  )
}

function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs break-all">{children}</code>
  )
}

/**
 * /dashboard/:orgSlug/connect-gpt (spec section 2 "Connect GPT", issue 23): an assistant (a custom
 * GPT, or any MCP client) as an interface to the firm's data. Shows the organisation id and the
 * project reference (the server the assistant calls), the owner's switch, the download of the
 * assistants' OpenAPI file and the endpoints it holds (read from the file itself), how to connect
 * an MCP client, sample prompts and security tips.
 */
export function ConnectGptPage() {
  const { orgId } = useOrgScope()
  const assistantApi = useQuery(assistantApiQuery(orgId))
  const server = assistantApi.data?.server || window.location.origin

  return (
    <>
      <PageHeader
        title="Connect GPT"
        description="Use a custom AI assistant as an interface to your organization’s data."
      />
      <div className="grid max-w-4xl grid-cols-1 gap-6">
        <Section title="The idea">
          <p>
            Your team already talks to assistants such as ChatGPT or Claude. Connected to Lexdesk,
            an assistant answers from the firm’s own documents, analyses, entities and past
            conversations, citing the passages it used, and can file new entities for you. It calls
            Lexdesk with a key you give it, sees only this organization, and everything it changes
            is in the audit log.
          </p>
          <dl className="grid gap-2 sm:grid-cols-[max-content_1fr] sm:gap-x-4">
            <dt className="font-medium">Organization id</dt>
            <dd>
              <Code>{orgId}</Code>
            </dd>
            <dt className="font-medium">Project reference</dt>
            <dd>
              <Code>{server}</Code>
            </dd>
          </dl>
        </Section>

        <ExternalAssistantsSwitch orgId={orgId} />

        <Section
          title="Custom GPT"
          description="Give a custom GPT this organization’s operations as its Actions."
        >
          <ol className="list-decimal space-y-1 pl-5">
            <li>
              Create an API key on the Security screen (scopes: read, and write if it may add
              entities).
            </li>
            <li>Download the OpenAPI file below.</li>
            <li>
              In the GPT editor, under Configure → Actions, import the file and set Authentication
              to API key, type Bearer, with your key.
            </li>
            <li>Turn external assistants on (above), then try a sample prompt.</li>
          </ol>
          <Button asChild>
            <a href={assistantOpenApiUrl(orgId)} download>
              Download OpenAPI file
            </a>
          </Button>
        </Section>

        <Section
          title="MCP client"
          description="Claude Desktop, Claude Code and other clients of the Model Context Protocol."
        >
          <p>
            Add a remote (Streamable HTTP) MCP server with the URL <Code>{mcpUrl(server)}</Code> and
            the header <Code>Authorization: Bearer &lt;your API key&gt;</Code>. For example, with
            Claude Code:
          </p>
          <pre className="overflow-x-auto rounded bg-muted p-3 font-mono text-xs">
            {`claude mcp add --transport http lexdesk ${mcpUrl(server)} \\\n  --header "Authorization: Bearer <your API key>"`}
          </pre>
          <p>
            Its tools: search passages (with citations), list and read documents and their analyses,
            list and create entities, recent conversations.
          </p>
        </Section>

        <Section title="Sample prompts">
          <ul className="list-disc space-y-1 pl-5">
            {SAMPLE_PROMPTS.map((prompt) => (
              <li key={prompt}>{prompt}</li>
            ))}
          </ul>
        </Section>

        <Section title="Security tips">
          <ul className="list-disc space-y-1 pl-5">
            {SECURITY_TIPS.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </Section>

        <Section title="Endpoints" description="The operations in the OpenAPI file.">
          {assistantApi.isError ? (
            <p role="alert" className="text-destructive">
              {assistantApi.error.message}
            </p>
          ) : assistantApi.isPending ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : (
            <ul className="space-y-3">
              {assistantApi.data.endpoints.map((endpoint) => (
                <li key={`${endpoint.method} ${endpoint.path}`}>
                  <p className="font-mono text-xs break-all">
                    <span className="font-semibold">{endpoint.method}</span> {endpoint.path}{' '}
                    <span className="text-muted-foreground">({endpoint.operationId})</span>
                  </p>
                  <p className="text-muted-foreground">{endpoint.description}</p>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </>
  )
}
