import { Link } from 'react-router'
import { passageHref } from '../hooks/passage-link'
import { useOrgScope } from '../lib/org-scope'
import type { components } from '../lib/api-schema'

type Citation = components['schemas']['Citation']

/** An answer's numbered citations, each a link opening its passage highlighted in its document (in the URL's organisation). */
export function CitationList({ citations }: { citations: readonly Citation[] }) {
  const scope = useOrgScope()
  return (
    <ol aria-label="Citations" className="mt-2 flex flex-col gap-1 text-xs">
      {citations.map((c) => (
        <li key={c.n}>
          <Link
            className="underline underline-offset-2 hover:text-primary"
            to={passageHref(scope, c.documentId, c)}
          >
            [{c.n}] {c.documentTitle}
          </Link>
        </li>
      ))}
    </ol>
  )
}
