import { useId, useState, type FormEvent } from 'react'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { CitationList } from '../../components/citation-list'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent } from '../../components/ui/card'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { orgPath } from '../../lib/org-path'
import { useOrgScope, type OrgUrlScope } from '../../lib/org-scope'
import { useLinkedId } from '../../lib/use-linked-id'
import { conversationsQuery, messagesQuery, renameConversation } from './api'

/**
 * /dashboard/:orgSlug/conversations: the organisation's conversations (spec §2, §4, §9), each by
 * its name when it has one; the one open shows its messages, a Rename form and 'Continue in the
 * assistant' (the dashboard's assistant resumes it: `?conversation=<id>`), and is kept in the
 * address (`?conversation=<id>`, so the audit log links to it), even when it is not on the pages
 * loaded.
 */
export function ConversationsPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Conversations"
        description="Conversations held in the current organization."
      />
      {/* Keyed by org and app: a change of organisation resets the list. */}
      <ConversationList key={`${scope.orgId}:${scope.appId ?? ''}`} scope={scope} />
    </>
  )
}

const formatStart = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function ConversationList({ scope }: { scope: OrgUrlScope }) {
  const list = useInfiniteQuery(conversationsQuery(scope.orgId, scope.appId))
  const [openId, setOpenId] = useLinkedId('conversation')
  if (list.status === 'pending') return <p className="text-sm text-muted-foreground">Loading...</p>
  // A failed 'Load more' keeps the pages already shown (and the button, to try again).
  if (list.status === 'error' && !list.data)
    return (
      <p role="alert" className="text-sm text-destructive">
        {list.error.message}
      </p>
    )
  const conversations = list.data.pages.flatMap((p) => p.items)
  if (conversations.length === 0)
    return <p className="text-sm text-muted-foreground">No conversations yet</p>
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Conversations" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {conversations.map((c) => (
          <li key={c.id}>
            <Card className={openId === c.id ? 'ring-2 ring-primary' : undefined}>
              <button
                type="button"
                className="w-full text-left"
                aria-expanded={openId === c.id}
                onClick={() => setOpenId(openId === c.id ? null : c.id)}
              >
                <CardContent className="flex flex-col gap-1 p-4">
                  {c.title && <span className="font-medium break-words">{c.title}</span>}
                  <span className="font-mono text-sm">{c.id.slice(0, 8)}</span>
                  <time dateTime={c.startedAt} className="text-xs text-muted-foreground">
                    {formatStart(c.startedAt)}
                  </time>
                </CardContent>
              </button>
            </Card>
          </li>
        ))}
      </ul>
      {list.isFetchNextPageError && (
        <p role="alert" className="text-sm text-destructive">
          {list.error?.message}
        </p>
      )}
      {list.hasNextPage && (
        <Button
          variant="outline"
          className="self-start"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
      {openId && (
        <>
          <ConversationActions
            // Keyed: another conversation's form starts from its own name.
            key={openId}
            scope={scope}
            conversationId={openId}
            title={conversations.find((c) => c.id === openId)?.title ?? null}
          />
          <ConversationMessages orgId={scope.orgId} conversationId={openId} />
        </>
      )}
    </div>
  )
}

function ConversationMessages({
  orgId,
  conversationId,
}: {
  orgId: string
  conversationId: string
}) {
  const messages = useQuery(messagesQuery(orgId, conversationId))
  return (
    <section
      aria-label={`Messages of conversation ${conversationId.slice(0, 8)}`}
      className="flex flex-col gap-3 rounded-lg border p-4"
    >
      {messages.status === 'pending' && <p className="text-sm text-muted-foreground">Loading...</p>}
      {messages.status === 'error' && (
        <p role="alert" className="text-sm text-destructive">
          {messages.error.message}
        </p>
      )}
      {messages.data?.items.map((m) => (
        <article key={m.id} className="text-sm">
          <h3 className="text-xs font-semibold uppercase text-muted-foreground">
            {m.role === 'user' ? 'Question' : 'Answer'}
          </h3>
          <p className="whitespace-pre-wrap">{m.content}</p>
          {m.citations.length > 0 && <CitationList citations={m.citations} />}
        </article>
      ))}
    </section>
  )
}

/**
 * The open conversation's actions: continue it in the dashboard's assistant, and rename it (the
 * server says who may: its starter or an admin; a refusal is toasted with its reason).
 */
function ConversationActions({
  scope,
  conversationId,
  title,
}: {
  scope: OrgUrlScope
  conversationId: string
  title: string | null
}) {
  const queryClient = useQueryClient()
  const nameId = useId()
  const [name, setName] = useState(title ?? '')
  const rename = useMutation({
    mutationFn: (next: string) => renameConversation(scope.orgId, conversationId, next),
    onSuccess: async (saved) => {
      toast.success(`Conversation renamed to “${saved.title ?? ''}”`)
      await queryClient.invalidateQueries({ queryKey: ['orgs', scope.orgId, 'conversations'] })
    },
    onError: (error) => toast.error(error.message),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (name.trim()) rename.mutate(name)
  }
  const shown = title ?? conversationId.slice(0, 8)
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <form onSubmit={submit} aria-label={`Rename ${shown}`} className="flex items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor={nameId}>Conversation name</Label>
          <Input
            id={nameId}
            value={name}
            maxLength={300}
            placeholder="e.g. Governing law of the Acme NDA"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <Button type="submit" variant="outline" disabled={rename.isPending || !name.trim()}>
          {rename.isPending ? 'Renaming…' : 'Rename'}
        </Button>
      </form>
      <Button asChild>
        <Link to={orgPath(scope, '', { conversation: conversationId })}>
          Continue in the assistant
        </Link>
      </Button>
    </div>
  )
}
