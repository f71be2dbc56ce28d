import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useWatch } from 'react-hook-form'
import { Link } from 'react-router'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { CitationList } from '../../components/citation-list'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent } from '../../components/ui/card'
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

/** The server's limit on a conversation's name (its `title`, 1–300 characters). */
const TITLE_MAX = 300

const renameSchema = z.object({
  title: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Give the conversation a name.'),
      z.maxLength(TITLE_MAX, `A name has at most ${TITLE_MAX} characters.`),
    ),
})

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
  const form = useZodForm(renameSchema, { title: title ?? '' })
  const name = useWatch({ control: form.control, name: 'title' })
  const rename = useMutation({
    mutationFn: (next: string) => renameConversation(scope.orgId, conversationId, next),
    onSuccess: async (saved) => {
      toast.success(`Conversation renamed to “${saved.title ?? ''}”`)
      await queryClient.invalidateQueries({ queryKey: ['orgs', scope.orgId, 'conversations'] })
    },
    onError: (error) => toast.error(error.message),
  })
  const shown = title ?? conversationId.slice(0, 8)
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <Form
        form={form}
        onSubmit={({ title }) => rename.mutate(title)}
        aria-label={`Rename ${shown}`}
        className="flex items-start gap-2"
      >
        <FormField<z.input<typeof renameSchema>>
          name="title"
          label="Conversation name"
          maxLength={TITLE_MAX}
          placeholder="e.g. Governing law of the Acme NDA"
        />
        {/* The button lines up with the input: below the label (14 px) and its 4 px gap. */}
        <FormSubmit
          variant="outline"
          pending={rename.isPending}
          pendingLabel="Renaming…"
          disabled={!name.trim()}
          className="mt-[18px]"
        >
          Rename
        </FormSubmit>
      </Form>
      <Button asChild>
        <Link to={orgPath(scope, '', { conversation: conversationId })}>
          Continue in the assistant
        </Link>
      </Button>
    </div>
  )
}
