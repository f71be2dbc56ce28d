import { useMutation } from '@tanstack/react-query'
import { Search } from 'lucide-react'
import { useId } from 'react'
import * as z from 'zod/mini'
import { Form, FormProblem, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { Input } from '../../components/ui/input'
import type { OrgScope } from '../../lib/org-scope'
import { searchPassages } from './api'

interface PassageSearchProps {
  scope: OrgScope
  /** Opens the passage's document with the passage highlighted. */
  onOpenPassage: (documentId: string, span: { start: number; end: number }) => void
}

/** The question, trimmed; a blank one is said to be missing rather than sent. */
const questionSchema = z.object({
  query: z.string().check(z.trim(), z.minLength(1, 'Describe what you are looking for.')),
})

/** The library's "by meaning" mode: passages of the org's documents closest to a question. */
export function PassageSearch({ scope, onOpenPassage }: PassageSearchProps) {
  const form = useZodForm(questionSchema, { query: '' })
  const messageId = useId()
  const missing = form.formState.errors.query?.message
  const search = useMutation({
    mutationFn: (q: string) =>
      searchPassages(scope.orgId, { query: q, k: 8, appId: scope.appId ?? undefined }),
  })
  return (
    <section aria-label="Search by meaning" className="flex flex-col gap-3">
      <Form form={form} className="flex gap-2" onSubmit={({ query }) => search.mutate(query)}>
        <Input
          type="search"
          aria-label="Search by meaning"
          placeholder="Describe what you are looking for"
          aria-invalid={missing ? true : undefined}
          aria-describedby={missing ? messageId : undefined}
          {...form.register('query')}
        />
        <FormSubmit pending={search.isPending}>
          <Search className="size-4" aria-hidden="true" />
          Find
        </FormSubmit>
      </Form>
      {missing && (
        <p id={messageId} className="text-xs text-destructive">
          {missing}
        </p>
      )}
      <FormProblem error={search.error} />
      {search.data?.length === 0 && (
        <p className="text-sm text-muted-foreground">No passage matches.</p>
      )}
      {search.data && search.data.length > 0 && (
        <ul aria-label="Passages" className="flex flex-col gap-2">
          {search.data.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="w-full rounded-md border p-3 text-left text-sm hover:bg-muted"
                onClick={() => onOpenPassage(p.documentId, { start: p.start, end: p.end })}
              >
                <span className="block font-medium">{p.documentTitle}</span>
                <span className="line-clamp-4 text-muted-foreground">{p.content}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
