import { useQueryClient } from '@tanstack/react-query'
import { Bot, Send } from 'lucide-react'
import { useRef, useState } from 'react'
import { useWatch } from 'react-hook-form'
import * as z from 'zod/mini'
import { Form, FormSubmit } from '../../components/form/form'
import { FormTextarea } from '../../components/form/form-textarea'
import { useZodForm } from '../../components/form/use-zod-form'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import type { OrgScope } from '../../lib/org-scope'
import { CitationList } from '../../components/citation-list'
import { streamChat, type Citation } from './stream-chat'
import { refreshAfterWrite } from '../../lib/refresh-after-write'
import { DocumentScopePicker, type ScopeDocument } from './document-scope-picker'

/** One exchange's side, as the panel shows it (and as a stored conversation's messages are). */
export interface Turn {
  role: 'user' | 'assistant'
  content: string
  citations: Citation[]
}

const questionSchema = z.object({
  question: z.string().check(z.trim(), z.minLength(1, 'Ask a question.')),
})

/** Most turns, and characters a turn, one chat request carries (the chat route's limits). */
const MAX_TURNS = 50
const MAX_TURN_CHARS = 8000

/**
 * The turns sent with a question: the latest MAX_TURNS non-empty ones, each cut to
 * MAX_TURN_CHARS, so a long continued conversation still fits the chat route's body; the stored
 * conversation keeps everything.
 */
function chatHistory(history: readonly Turn[]): { role: Turn['role']; content: string }[] {
  return history
    .filter((turn) => turn.content.trim() !== '')
    .slice(-MAX_TURNS)
    .map(({ role, content }) => ({ role, content: content.slice(0, MAX_TURN_CHARS) }))
}

/**
 * The dashboard's assistant: asks questions about the organisation's documents (or the ones
 * chosen in its scope picker, starting from `documentIds`, e.g. a document page's 'Ask about
 * this document'), shows the answer as it streams, and lists its citations, each opening its
 * passage highlighted. Given `conversation` (a stored one being continued), it starts from its
 * turns and the next question joins that conversation.
 */
export function AssistantPanel({
  scope,
  documents,
  documentsError = null,
  documentIds: initialDocumentIds = [],
  conversation,
}: {
  scope: OrgScope
  /** The documents its scope picker offers; undefined while they load. */
  documents?: readonly ScopeDocument[]
  /** Why they could not be loaded, or null. */
  documentsError?: Error | null
  documentIds?: string[]
  /** A stored conversation to continue: its id and its turns so far, oldest first. */
  conversation?: { id: string; turns: Turn[] }
}) {
  const [turns, setTurns] = useState<Turn[]>(conversation?.turns ?? [])
  const [documentIds, setDocumentIds] = useState<string[]>(initialDocumentIds)
  const form = useZodForm(questionSchema, { question: '' })
  const question = useWatch({ control: form.control, name: 'question' })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const conversationId = useRef<string | null>(conversation?.id ?? null)
  const queryClient = useQueryClient()

  /** Sends `text` (the schema trimmed it and refused a blank one) with the turns so far. */
  const ask = async (text: string) => {
    if (busy) return
    const history = [...turns, { role: 'user' as const, content: text, citations: [] }]
    setTurns([...history, { role: 'assistant', content: '', citations: [] }])
    form.reset({ question: '' })
    setBusy(true)
    setError(null)
    const update = (change: (turn: Turn) => Turn) =>
      setTurns((all) => [...all.slice(0, -1), change(all.at(-1) as Turn)])
    try {
      const result = await streamChat(
        {
          orgId: scope.orgId,
          appId: scope.appId,
          conversationId: conversationId.current,
          documentIds,
          messages: chatHistory(history),
        },
        (delta) => update((turn) => ({ ...turn, content: turn.content + delta })),
      )
      conversationId.current = result.conversationId ?? conversationId.current
      update((turn) => ({ ...turn, citations: result.citations }))
    } catch (failure) {
      setError((failure as Error).message || 'Failed to get AI response')
    } finally {
      setBusy(false)
      void refreshAfterWrite(queryClient, ['orgs', scope.orgId, 'conversations'])
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Bot className="size-5" aria-hidden="true" />
          Assistant
        </CardTitle>
        <CardDescription>
          Ask about your organisation’s documents; answers cite the passages they come from.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {turns.length > 0 && (
          <ol aria-label="Conversation" className="flex flex-col gap-3">
            {turns.map((turn, i) => (
              <li
                key={i}
                className={
                  turn.role === 'user'
                    ? 'self-end rounded-md bg-muted px-3 py-2 text-sm'
                    : 'text-sm'
                }
              >
                <p
                  className="whitespace-pre-wrap"
                  aria-label={turn.role === 'user' ? 'Question' : 'Answer'}
                >
                  {turn.content || (busy && i === turns.length - 1 ? 'Thinking…' : '')}
                </p>
                {turn.citations.length > 0 && <CitationList citations={turn.citations} />}
              </li>
            ))}
          </ol>
        )}
        <DocumentScopePicker
          documents={documents}
          error={documentsError}
          value={documentIds}
          onChange={setDocumentIds}
        />
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <Form
          form={form}
          onSubmit={({ question }) => void ask(question)}
          className="flex items-end gap-2"
        >
          <FormTextarea<z.input<typeof questionSchema>>
            name="question"
            label="Question"
            labelClassName="sr-only"
            className="flex-1"
            rows={2}
            placeholder="e.g. What happens to confidential information when the agreement ends?"
          />
          <FormSubmit pending={busy} disabled={question.trim() === ''}>
            <Send className="size-4" aria-hidden="true" />
            Ask
          </FormSubmit>
        </Form>
      </CardContent>
    </Card>
  )
}
